// The store's subagent tasks (fake IndexedDB): written whole, counted in the session's totals, deleted and forked
// with their session, and brought back interrupted after a reload mid-task.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { closeInterruptedTask, TASK_INTERRUPTED_BY_RELOAD } from './repair-transcript';
import { createSessionStore } from './session-store';
import { LARGE_TEXT_CHARS } from './entry-codec';
import { assistant, call, result, task, user } from '../testing/messages';
import type { SessionStore } from '../types';

let counter = 0;
const opened: SessionStore[] = [];
function storeNamed(prefix: string): SessionStore {
  const store = createSessionStore({ prefix });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A session whose first reply calls `task` twice (t1, t2), answered, then a second turn calling t3. */
async function sessionWithTaskCalls(store: SessionStore): Promise<string> {
  const { id } = await store.createSession();
  for (const m of [
    user('look around'),
    assistant([call('t1', 'task'), call('t2', 'task')]),
    result('t1', 'found it', 'task'),
    result('t2', 'found more', 'task'),
    user('now fix it'),
    assistant([call('t3', 'task')]),
    result('t3', 'fixed', 'task'),
  ]) {
    await store.appendEntry(id, m);
  }
  return id;
}

describe('subagent tasks in the store', () => {
  it('keeps the latest version of each task, in call order, after a reload', async () => {
    const prefix = `tasks-${counter++}-`;
    const store = storeNamed(prefix);
    const id = await sessionWithTaskCalls(store);
    await store.saveTask(id, task('t2', { queuedAt: 30, status: 'running', messages: [user('second')], result: undefined }));
    await store.saveTask(id, task('t1', { queuedAt: 20 }));
    await store.saveTask(id, task('t2', { queuedAt: 30, description: 'Second, done' }));
    store.close();

    const tasks = await storeNamed(prefix).loadTasks(id);
    expect(tasks.map((t) => [t.toolCallId, t.status, t.description])).toEqual([
      ['t1', 'done', 'Find the config loader'],
      ['t2', 'done', 'Second, done'],
    ]);
    expect(tasks[1].messages).toHaveLength(4);
    // The transcript's own entries are untouched by the task records beside them.
    expect(await storeNamed(prefix).loadEntries(id)).toHaveLength(7);
  });

  it("counts a task's usage once in the session's totals, however often it was saved", async () => {
    const store = storeNamed(`tasks-${counter++}-`);
    const id = await sessionWithTaskCalls(store);
    const before = (await store.getSession(id))!;
    const usage = (input: number, cost: number) => ({ input, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: cost } });
    await store.saveTask(id, task('t1', { status: 'running', usage: usage(100, 0.1) }));
    await store.saveTask(id, task('t1', { status: 'running', usage: usage(300, 0.25) }));
    await store.saveTask(id, task('t1', { usage: usage(500, 0.5) }));
    const after = (await store.getSession(id))!;
    expect(after.cost).toBeCloseTo(before.cost + 0.5);
    expect(after.tokens.input).toBe(before.tokens.input + 500);
    expect(after.tokens.output).toBe(before.tokens.output + 10);
  });

  it('keeps a large text of a task transcript whole (stored in Blobs like a message)', async () => {
    const store = storeNamed(`tasks-${counter++}-`);
    const id = await sessionWithTaskCalls(store);
    const big = 'x'.repeat(LARGE_TEXT_CHARS + 10);
    await store.saveTask(id, task('t1', { messages: [user('go'), assistant([call('r1', 'read')]), result('r1', big, 'read')] }));
    const [loaded] = await store.loadTasks(id);
    expect(loaded.messages[2]).toMatchObject({ content: [{ text: big }] });
  });

  it('names the problem of a damaged stored task instead of showing it', async () => {
    const store = storeNamed(`tasks-${counter++}-`);
    const id = await sessionWithTaskCalls(store);
    await store.saveTask(id, task('t1', { messages: [{ role: 'robot' } as never] }));
    await expect(store.loadTasks(id)).rejects.toThrow(/subagent task of session .* is damaged \(messages\/0\/role: must be/);
  });

  it("are deleted with their session", async () => {
    const prefix = `tasks-${counter++}-`;
    const store = storeNamed(prefix);
    const id = await sessionWithTaskCalls(store);
    const other = await sessionWithTaskCalls(store);
    await store.saveTask(id, task('t1'));
    await store.saveTask(other, task('t1'));
    await store.deleteSession(id);
    await expect(store.loadTasks(id)).rejects.toThrow(/does not exist/);
    expect(await store.loadTasks(other)).toHaveLength(1);
    // A task saved for a session deleted meanwhile (another tab) is refused, not orphaned.
    await expect(store.saveTask(id, task('t2'))).rejects.toThrow(/does not exist/);
  });

  it('a fork keeps the tasks whose calls it keeps, and counts only their cost', async () => {
    const store = storeNamed(`tasks-${counter++}-`);
    const id = await sessionWithTaskCalls(store);
    await store.saveTask(id, task('t1', { queuedAt: 1 }));
    await store.saveTask(id, task('t2', { queuedAt: 2 }));
    await store.saveTask(id, task('t3', { queuedAt: 3 }));
    const { session } = await store.forkSession(id, 4); // before "now fix it": t3's call is not kept
    expect((await store.loadTasks(session.id)).map((t) => t.toolCallId)).toEqual(['t1', 't2']);
    // The one reply kept (0.01) and the two tasks kept (0.03 each); t3's 0.03 stays with the parent.
    expect(session.cost).toBeCloseTo(0.01 + 2 * 0.03);
  });

  it('an imported seed keeps its tasks', async () => {
    const store = storeNamed(`tasks-${counter++}-`);
    const record = await store.importSession({
      title: 'shared', model: 'm', provider: 'p',
      messages: [user('go'), assistant([call('t1', 'task')]), result('t1', 'done', 'task')],
      tasks: [task('t1')],
    });
    expect(await store.loadTasks(record.id)).toEqual([task('t1')]);
    expect(record.cost).toBeCloseTo(0.01 + 0.03);
  });
});

describe('closeInterruptedTask', () => {
  it('brings a task stored as running back aborted and interrupted, its partial transcript kept and closed', () => {
    const running = task('t1', {
      status: 'running',
      endedAt: undefined,
      result: undefined,
      messages: [user('look'), assistant([call('r1', 'read'), call('r2', 'grep')]), result('r1', 'text', 'read')],
    });
    const closed = closeInterruptedTask(running, 5_000);
    expect(closed).toMatchObject({ status: 'aborted', interrupted: true, endedAt: 5_000, error: TASK_INTERRUPTED_BY_RELOAD });
    expect(closed.messages.slice(0, 3)).toEqual(running.messages);
    expect(closed.messages[3]).toMatchObject({ role: 'toolResult', toolCallId: 'r2', isError: true });
  });

  it('also closes a task that never started, and leaves ended ones as they are', () => {
    const queued = task('t1', { status: 'queued', startedAt: undefined, endedAt: undefined, messages: [user('wait')] });
    expect(closeInterruptedTask(queued, 7)).toMatchObject({ status: 'aborted', interrupted: true, endedAt: 7 });
    for (const status of ['done', 'error', 'conflict', 'aborted'] as const) {
      const ended = task('t1', { status });
      expect(closeInterruptedTask(ended, 7)).toBe(ended);
    }
  });
});
