import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import type { Runtime } from '../../runtime/types';
import { ABORTED_BY_RELOAD, createSessionStore, StorageFullError, unzipToMap, type SessionStore } from '../../store';
import type { SessionEvent } from './controller.svelte';
import { openStoredSession, restoreWorkspace, SessionPersistence, type PersistedSession, type SaveState } from './persistence';

let counter = 0;
const opened: SessionStore[] = [];
function freshStore(): SessionStore {
  const store = createSessionStore({ prefix: `persist-${counter++}-` });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const user = (text: string): UserMessage => ({ role: 'user', content: text, timestamp: 1 });
const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: { total: 0.25 } };
const callingWrite = (id: string): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id, name: 'write', arguments: { path: 'a.txt', content: 'x' } }],
  provider: 'mock',
  model: 'mock-model',
  usage,
  stopReason: 'toolUse',
  timestamp: 2,
});
const resultOf = (id: string): ToolResultMessage => ({
  role: 'toolResult', toolCallId: id, toolName: 'write', content: [{ type: 'text', text: 'ok' }], isError: false, timestamp: 3,
});

function fakeSession(): PersistedSession & { running: boolean; readonly listening: number; emit(m: Message): void; end(): void; tell(e: SessionEvent): void } {
  const listeners = new Set<(event: SessionEvent) => void>();
  const session = {
    running: false,
    get listening() {
      return listeners.size;
    },
    subscribe(listener: (event: SessionEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(m: Message) {
      for (const listener of listeners) listener({ type: 'message', message: m });
    },
    tell(event: SessionEvent) {
      for (const listener of listeners) listener(event);
    },
    end() {
      session.running = false;
      for (const listener of listeners) listener({ type: 'run-end' });
    },
  };
  return session;
}

const text = (files: Map<string, Uint8Array>, path: string) => new TextDecoder().decode(files.get(path));

/** Resolves once `runtime`'s watch reports `path`. */
function reported(runtime: Runtime, path: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = runtime.watch((paths) => {
      if (!paths.includes(path)) return;
      stop();
      resolve();
    });
  });
}

async function setup(files: Record<string, string> = {}) {
  const store = freshStore();
  const runtime = await createEmbeddedRuntime({ files });
  const record = await store.createSession();
  const states: SaveState[] = [];
  const persistence = new SessionPersistence({ store, workspace: runtime, sessionId: record.id, idleSnapshotMs: 20, onStateChange: (s) => states.push(s) });
  const session = fakeSession();
  persistence.attach(session);
  return { store, runtime, id: record.id, persistence, session, states };
}

describe('SessionPersistence', () => {
  it("stores the session's web tools switch with the session", async () => {
    const { store, id, persistence, session } = await setup();
    expect((await store.getSession(id))?.webTools).toBeUndefined();
    session.tell({ type: 'web-tools', on: true });
    await persistence.flush();
    expect((await store.getSession(id))?.webTools).toBe(true);
    session.tell({ type: 'web-tools', on: false });
    await persistence.flush();
    expect((await store.getSession(id))?.webTools).toBe(false);
  });

  it('stores each message as it completes, with a checkpoint of the workspace before each user turn', async () => {
    const { store, runtime, id, persistence, session, states } = await setup({ 'a.txt': 'before' });
    session.running = true;
    session.emit(user('Change a.txt'));
    session.emit(callingWrite('c1'));
    const watched = reported(runtime, 'a.txt');
    await runtime.writeFile('a.txt', 'after');
    await watched; // the change has reached persistence before the flush, as it would by a run's end
    session.emit(resultOf('c1'));
    session.end();
    await persistence.flush();

    expect(await store.loadEntries(id)).toHaveLength(3);
    const record = await store.getSession(id);
    expect(record?.title).toBe('Change a.txt');
    expect(record?.model).toBe('mock-model');
    expect(record?.cost).toBeCloseTo(0.25);
    expect(record?.checkpoints).toEqual([0]);
    expect(text(await unzipToMap((await store.loadSnapshot(id, { checkpoint: 0 }))!), 'a.txt')).toBe('before');
    expect(text(await unzipToMap((await store.loadSnapshot(id, 'latest'))!), 'a.txt')).toBe('after');
    expect(states.at(-1)).toBe('saved');
  });

  it('saves the workspace after a tool batch, so a reload mid-run finds the edits', async () => {
    const { store, runtime, id, persistence, session } = await setup();
    session.running = true;
    session.emit(user('go'));
    session.emit(callingWrite('c1'));
    await runtime.writeFile('new.txt', 'made mid-run');
    await new Promise((r) => setTimeout(r, 50)); // the watch batches changes
    session.emit(resultOf('c1'));
    await persistence.flush();
    // The run has not ended, yet the latest snapshot has the file.
    expect(text(await unzipToMap((await store.loadSnapshot(id, 'latest'))!), 'new.txt')).toBe('made mid-run');
  });

  it('saves changes made outside a run (the person editing) after a quiet moment, leaving node_modules out', async () => {
    const { store, runtime, id, persistence } = await setup();
    await runtime.writeFile('notes.md', 'by hand');
    await runtime.writeFile('node_modules/dep/index.js', 'big');
    await new Promise((r) => setTimeout(r, 120));
    await persistence.flush();
    const files = await unzipToMap((await store.loadSnapshot(id, 'latest'))!);
    expect(text(files, 'notes.md')).toBe('by hand');
    expect([...files.keys()].some((p) => p.startsWith('node_modules'))).toBe(false);
  });

  it('reports a full disk, keeps the message in memory, and stores it in order on retry', async () => {
    const { store, id, persistence, session, states } = await setup();
    let full = true;
    const append = store.appendEntry.bind(store);
    store.appendEntry = async (sessionId, message) => {
      if (full) throw new StorageFullError('the latest message');
      return append(sessionId, message);
    };
    session.emit(user('first'));
    await persistence.flush();
    expect(persistence.saveState).toBe('failed');
    expect(persistence.error).toBeInstanceOf(StorageFullError);
    expect(states).toContain('failed');

    session.emit(callingWrite('c1'));
    await persistence.flush();
    expect(await store.loadEntries(id)).toHaveLength(0);

    full = false;
    await persistence.retry();
    const stored = await store.loadEntries(id);
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(persistence.saveState).toBe('saved');
    expect(persistence.error).toBeNull();
  });

  it('stops writing once detached', async () => {
    const { store, id, persistence, session } = await setup();
    persistence.detach();
    session.emit(user('after detach'));
    await persistence.flush();
    expect(await store.loadEntries(id)).toHaveLength(0);
    expect(session.listening).toBe(0); // nothing left hooked into the controller
  });
});

describe('reopening a stored session', () => {
  it('owner tab: dangling tool calls get stored aborted results; the workspace comes back from the snapshot', async () => {
    const { store, runtime, id, persistence, session } = await setup({ 'a.txt': 'v1' });
    session.running = true;
    session.emit(user('go'));
    session.emit(callingWrite('c1'));
    await runtime.writeFile('a.txt', 'v2');
    await persistence.workspaceReplaced();
    // "Reload": a new runtime with nothing in it.
    const fresh: Runtime = await createEmbeddedRuntime();
    const opened = await openStoredSession(store, id, async () => ({ release() {} }));
    expect(opened.lock).not.toBeNull();
    expect(opened.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    const synthesized = opened.messages[2] as ToolResultMessage;
    expect(synthesized.isError).toBe(true);
    expect(synthesized.content[0]).toEqual({ type: 'text', text: ABORTED_BY_RELOAD });
    expect(await store.loadEntries(id)).toHaveLength(3);

    expect(await restoreWorkspace(store, fresh, id)).toBe('snapshot');
    expect(new TextDecoder().decode(await fresh.readFile('a.txt'))).toBe('v2');
  });

  it('second tab: read-only, repaired in memory, nothing written', async () => {
    const { store, id, persistence, session } = await setup();
    session.emit(user('go'));
    session.emit(callingWrite('c1'));
    await persistence.flush();
    const opened = await openStoredSession(store, id, async () => null);
    expect(opened.lock).toBeNull();
    expect(opened.messages).toHaveLength(3);
    expect(await store.loadEntries(id)).toHaveLength(2);
  });

  it('restores the baseline when no snapshot exists, an empty workspace when neither does, and refuses a missing checkpoint', async () => {
    const store = freshStore();
    const runtime = await createEmbeddedRuntime({ files: { 'left.txt': 'over' } });
    const { id } = await store.createSession();
    expect(await restoreWorkspace(store, runtime, id)).toBe('empty');
    expect(await runtime.readdir(runtime.workdir)).toEqual([]);
    const { zipFromFiles } = await import('../../store');
    await store.saveSnapshot(id, 'baseline', zipFromFiles(new Map([['base.txt', new TextEncoder().encode('b')]])));
    expect(await restoreWorkspace(store, runtime, id)).toBe('baseline');
    expect((await runtime.readdir(runtime.workdir)).map((e) => e.name)).toEqual(['base.txt']);
    await expect(restoreWorkspace(store, runtime, id, { checkpoint: 7 })).rejects.toThrow(/No workspace was kept/);
  });

  it('a deleted session is reported as such', async () => {
    const store = freshStore();
    await expect(openStoredSession(store, 'nope', async () => null)).rejects.toThrow(/no longer exists/);
  });
});
