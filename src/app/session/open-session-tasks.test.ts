// Opening a stored session hands its subagent tasks to the controller: one a reload cut off comes back aborted and
// interrupted with its partial transcript, and the owning tab stores it so.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedStreamFn } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import type { TaskEntry } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { createSessionStore, type SessionStore } from '../../store';
import { assistant, call, result, task, user } from '../../store/testing/messages';
import { createCodingTools } from '../../tools';
import type { Settings } from '../settings/settings';
import { SessionController } from './controller.svelte';
import { OpenSession, type SessionHost } from './open-session.svelte';
import { WorkspaceSnapshots } from './workspace-snapshots';

let counter = 0;
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

async function opened(store: SessionStore, id: string, lock: boolean): Promise<TaskEntry[] | undefined> {
  const workspace = new Workspace();
  workspace.attach(await createEmbeddedRuntime({}));
  let given: TaskEntry[] | undefined;
  const host: SessionHost = {
    workspace,
    createController: (init) => {
      given = init.tasks;
      return new SessionController({
        ...init, workspace, tools: createCodingTools(workspace), getSettings: () => ({}) as Settings,
        resolveModel: () => testModel(), streamFn: createScriptedStreamFn([]), scheduleUpdate: (fn) => queueMicrotask(fn),
      });
    },
  };
  const session = await OpenSession.open(id, {
    store, host, snapshots: new WorkspaceSnapshots(workspace, store.objects), acquireLock: async () => (lock ? { release() {} } : null),
  });
  cleanups.push(() => session.close());
  return given;
}

describe('opening a session with subagent tasks', () => {
  it('gives the controller its tasks, one cut off by a reload aborted and interrupted, and stores that', async () => {
    const store = createSessionStore({ prefix: `open-tasks-${counter++}-` });
    cleanups.push(() => store.close());
    const { id } = await store.createSession();
    for (const m of [user('look'), assistant([call('t1', 'task'), call('t2', 'task')]), result('t1', 'found', 'task')]) await store.appendEntry(id, m);
    await store.saveTask(id, task('t1'));
    await store.saveTask(id, task('t2', { queuedAt: 12, status: 'running', endedAt: undefined, result: undefined, messages: [user('dig'), assistant([call('r', 'read')])] }));

    const tasks = await opened(store, id, true);
    expect(tasks?.map((t) => [t.toolCallId, t.status, t.interrupted])).toEqual([['t1', 'done', undefined], ['t2', 'aborted', true]]);
    expect(tasks?.[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect((await store.loadTasks(id))[1]).toMatchObject({ status: 'aborted', interrupted: true });
  });
});
