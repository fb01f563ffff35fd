// Subagent tasks are stored as they change: throttled per task, the final version always, a full disk reported
// and retried, and a reload mid-task finding the task interrupted with its partial transcript.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskEntry } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { createSessionStore, StorageFullError, type SessionStore } from '../../store';
import { assistant, call, result, task, user } from '../../store/testing/messages';
import type { SessionEvent } from './controller.svelte';
import { recoverInterruptedTasks } from './interrupted-reply';
import { SessionPersistence } from './persistence';
import { TaskWrites } from './task-writes';

let counter = 0;
const opened: SessionStore[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const store of opened.splice(0)) store.close();
});

const running = (messages: number): TaskEntry =>
  task('t1', { status: 'running', endedAt: undefined, result: undefined, messages: Array.from({ length: messages }, (_, i) => user(`m${i}`)) });

describe('TaskWrites', () => {
  it('says a change is waiting from when it is held back until it is handed on (the save status shows saving)', () => {
    vi.useFakeTimers();
    const heard: boolean[] = [];
    const writes: TaskWrites = new TaskWrites({ write: () => {}, minIntervalMs: 500, now: () => Date.now(), onWaitingChange: () => heard.push(writes.waiting) });
    writes.changed(running(1));
    expect(writes.waiting).toBe(false);
    writes.changed(running(2));
    expect(writes.waiting).toBe(true);
    vi.advanceTimersByTime(500);
    expect(writes.waiting).toBe(false);
    expect(heard).toEqual([true, false, true, false]);
  });

  it('writes a running task at most every interval, the latest version only, and an ended one at once', () => {
    vi.useFakeTimers();
    const written: [string, number][] = [];
    const writes = new TaskWrites({ write: (t) => written.push([t.status, t.messages.length]), minIntervalMs: 500, now: () => Date.now() });
    writes.changed(running(1)); // the first change is written at once
    for (let n = 2; n <= 20; n++) writes.changed(running(n));
    expect(written).toEqual([['running', 1]]);
    vi.advanceTimersByTime(500);
    expect(written).toEqual([['running', 1], ['running', 20]]);
    writes.changed(running(21));
    writes.changed({ ...running(22), status: 'done' }); // the end is never held back
    expect(written.at(-1)).toEqual(['done', 22]);
    vi.advanceTimersByTime(2_000);
    expect(written).toHaveLength(3);
  });

  it('throttles each task on its own and hands everything pending on flush', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const writes = new TaskWrites({ write: (t) => written.push(`${t.toolCallId}:${t.messages.length}`), now: () => Date.now() });
    writes.changed(running(1));
    writes.changed({ ...running(1), toolCallId: 't2' });
    writes.changed(running(2));
    writes.changed({ ...running(3), toolCallId: 't2' });
    expect(written).toEqual(['t1:1', 't2:1']);
    writes.flush();
    expect(written).toEqual(['t1:1', 't2:1', 't1:2', 't2:3']);
  });

  it('writes nothing more once disposed', () => {
    vi.useFakeTimers();
    const written: number[] = [];
    const writes = new TaskWrites({ write: (t) => written.push(t.messages.length), now: () => Date.now() });
    writes.changed(running(1));
    writes.changed(running(2));
    writes.dispose();
    vi.advanceTimersByTime(5_000);
    writes.flush();
    expect(written).toEqual([1]);
  });
});

async function setup() {
  const store = createSessionStore({ prefix: `task-writes-${counter++}-` });
  opened.push(store);
  const runtime = await createEmbeddedRuntime({});
  const { id } = await store.createSession();
  const persistence = new SessionPersistence({ store, workspace: runtime, sessionId: id });
  const listeners = new Set<(event: SessionEvent) => void>();
  persistence.attach({ subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) });
  const tell = (event: SessionEvent) => listeners.forEach((l) => l(event));
  tell({ type: 'message', message: user('look around') });
  tell({ type: 'message', message: assistant([call('t1', 'task')]) });
  return { store, id, persistence, tell };
}

describe('SessionPersistence and tasks', () => {
  it('stores the latest version by the end of the run, and a reload mid-task finds it interrupted', async () => {
    const { store, id, persistence, tell } = await setup();
    for (let n = 1; n <= 5; n++) tell({ type: 'task', task: running(n) });
    tell({ type: 'run-end' });
    await persistence.flush();
    const [stored] = await store.loadTasks(id);
    expect(stored).toMatchObject({ status: 'running', messages: { length: 5 } });

    // The page reloads: the owning tab finds the task cut off, and stores it so.
    const [reopened] = await recoverInterruptedTasks(store, id, true, 9_999);
    expect(reopened).toMatchObject({ status: 'aborted', interrupted: true, endedAt: 9_999, messages: { length: 5 } });
    expect((await store.loadTasks(id))[0]).toMatchObject({ status: 'aborted', endedAt: 9_999 });
  });

  it('another tab shows an interrupted task without storing anything', async () => {
    const { store, id, persistence, tell } = await setup();
    tell({ type: 'task', task: running(2) });
    await persistence.flush();
    const [shown] = await recoverInterruptedTasks(store, id, false, 5);
    expect(shown.status).toBe('aborted');
    expect((await store.loadTasks(id))[0].status).toBe('running');
  });

  it('reports a full disk, keeps the latest task in memory, and stores it on retry', async () => {
    const { store, id, persistence, tell } = await setup();
    let full = true;
    const save = store.saveTask.bind(store);
    store.saveTask = async (sessionId, entry) => {
      if (full) throw new StorageFullError('the subagent task');
      return save(sessionId, entry);
    };
    tell({ type: 'task', task: running(1) });
    const done = task('t1', { messages: [user('go'), assistant([call('r', 'read')]), result('r', 'x', 'read'), assistant('found')] });
    tell({ type: 'task', task: done });
    await persistence.flush();
    expect(persistence.saveState).toBe('failed');
    expect(persistence.error).toBeInstanceOf(StorageFullError);
    expect(await store.loadTasks(id)).toEqual([]);

    full = false;
    await persistence.retry();
    expect(await store.loadTasks(id)).toEqual([done]);
    expect(persistence.saveState).toBe('saved');
    expect(persistence.error).toBeNull();
  });
});
