import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageFullError } from '../errors';
import { ABORTED_BY_RELOAD } from './repair-transcript';
import { createSessionStore } from './session-store';
import { assistant, call, result, transcript, user } from '../testing/messages';
import type { SessionChange, SessionStore } from '../types';

let counter = 0;
const opened: SessionStore[] = [];
function freshStore(onChange?: (c: SessionChange) => void): SessionStore {
  const store = createSessionStore({ prefix: `test-${counter++}-`, onChange });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const zip = (text: string) => new TextEncoder().encode(text);

describe('session store', () => {
  it('creates, lists (newest first), renames and reports changes', async () => {
    const changes: SessionChange[] = [];
    const store = freshStore((c) => changes.push(c));
    const a = await store.createSession({ model: 'm1', provider: 'p1' });
    await new Promise((r) => setTimeout(r, 5));
    const b = await store.createSession();
    expect((await store.listSessions()).map((s) => s.id)).toEqual([b.id, a.id]);
    const renamed = await store.renameSession(a.id, '  My refactor  ');
    expect(renamed.title).toBe('My refactor');
    expect((await store.listSessions())[0].id).toBe(a.id);
    expect(changes).toEqual([
      { type: 'created', id: a.id },
      { type: 'created', id: b.id },
      { type: 'updated', id: a.id },
    ]);
  });

  it('keeps the folder link of a session apart from its record, removes it on request, and drops it with the session', async () => {
    const store = freshStore();
    const a = await store.createSession();
    const b = await store.createSession();
    const link = { handle: { kind: 'directory', name: 'my-app' }, sync: { version: 1, folderName: 'my-app', files: [] } };
    await store.saveFolderLink(a.id, link);
    await store.saveFolderLink(b.id, link);
    expect(await store.loadFolderLink(a.id)).toEqual(link);
    expect(await store.getSession(a.id)).not.toHaveProperty('handle');
    await store.saveFolderLink(b.id, undefined);
    expect(await store.loadFolderLink(b.id)).toBeUndefined();
    await store.deleteSession(a.id);
    expect(await store.loadFolderLink(a.id)).toBeUndefined();
    expect(await store.getSettings()).toBeUndefined();
  });

  it('appends entries in seq order past 9, 99 and 999, and titles the session from the first prompt', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    const messages = Array.from({ length: 1003 }, (_, i) => user(`message ${i}\nsecond line`, i));
    for (const [i, m] of messages.entries()) expect(await store.appendEntry(id, m)).toBe(i);
    const loaded = await store.loadEntries(id);
    expect(loaded.length).toBe(1003);
    expect(loaded.map((m) => m.timestamp)).toEqual(messages.map((m) => m.timestamp));
    const session = await store.getSession(id);
    expect(session?.title).toBe('message 0');
    expect(session?.messageCount).toBe(1003);
  });

  it('keeps sessions apart, including ids that share a prefix in key order', async () => {
    const store = freshStore();
    const a = await store.createSession();
    const b = await store.createSession();
    await store.appendEntry(a.id, user('for a'));
    await store.appendEntry(b.id, user('for b'));
    await store.appendEntry(a.id, user('for a again'));
    expect((await store.loadEntries(a.id)).map((m) => m.content)).toEqual(['for a', 'for a again']);
    expect((await store.loadEntries(b.id)).map((m) => m.content)).toEqual(['for b']);
  });

  it('concurrent appends get distinct seqs', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    const seqs = await Promise.all(Array.from({ length: 20 }, (_, i) => store.appendEntry(id, user(`m${i}`))));
    expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect((await store.loadEntries(id)).length).toBe(20);
  });

  it('accounts cost, tokens and model from assistant messages', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    for (const m of transcript(2)) await store.appendEntry(id, m);
    const session = await store.getSession(id);
    expect(session?.cost).toBeCloseTo(0.04);
    expect(session?.tokens).toEqual({ input: 400, output: 80, cacheRead: 20, cacheWrite: 4 });
    expect(session?.model).toBe('claude-test');
    expect(session?.provider).toBe('anthropic');
  });

  it('rejects appends to a session that does not exist', async () => {
    const store = freshStore();
    await expect(store.appendEntry('nope', user('x'))).rejects.toThrow(/does not exist/);
  });

  it('saves and loads snapshots; a failed check of a missing one gives undefined', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    expect(await store.loadSnapshot(id, 'latest')).toBeUndefined();
    expect(await store.loadSnapshot(id, 'baseline')).toBeUndefined();
    await store.saveSnapshot(id, 'latest', zip('v1'));
    await store.saveSnapshot(id, 'latest', zip('v2'));
    await store.saveSnapshot(id, 'baseline', zip('base'));
    await store.saveSnapshot(id, { checkpoint: 4 }, zip('cp4'));
    await store.saveSnapshot(id, { checkpoint: 0 }, zip('cp0'));
    expect(await store.loadSnapshot(id, 'latest')).toEqual(zip('v2'));
    expect(await store.loadSnapshot(id, 'baseline')).toEqual(zip('base'));
    expect(await store.loadSnapshot(id, { checkpoint: 4 })).toEqual(zip('cp4'));
    expect(await store.listCheckpoints(id)).toEqual([0, 4]);
  });

  it('forks at a user message: earlier transcript, that checkpoint as workspace, shared baseline', async () => {
    const store = freshStore();
    const parent = await store.createSession({ title: 'Parent' });
    await store.saveSnapshot(parent.id, 'baseline', zip('base'));
    const messages = transcript(3); // user messages at 0, 4, 8
    for (const [seq, m] of messages.entries()) {
      if (m.role === 'user') await store.saveSnapshot(parent.id, { checkpoint: seq }, zip(`cp${seq}`));
      await store.appendEntry(parent.id, m);
    }
    const { session, prompt, workspace } = await store.forkSession(parent.id, 4);
    expect(prompt).toEqual(messages[4]);
    expect(workspace).toBe('checkpoint');
    expect(session.title).toBe('Parent (fork)');
    expect(session.forkedFrom).toEqual({ sessionId: parent.id, seq: 4 });
    expect(await store.loadEntries(session.id)).toEqual(messages.slice(0, 4));
    expect(session.messageCount).toBe(4);
    expect(session.cost).toBeCloseTo(0.02);
    expect(await store.loadSnapshot(session.id, 'latest')).toEqual(zip('cp4'));
    expect(await store.listCheckpoints(session.id)).toEqual([0]);
    expect(await store.loadSnapshot(session.id, { checkpoint: 0 })).toEqual(zip('cp0'));
    expect(await store.loadSnapshot(session.id, 'baseline')).toEqual(zip('base'));
    // The parent is untouched and the fork continues independently.
    await store.appendEntry(session.id, user('different direction'));
    expect((await store.loadEntries(parent.id)).length).toBe(12);
    await expect(store.forkSession(parent.id, 5)).rejects.toThrow(/not a user message/);
    await expect(store.forkSession(parent.id, 99)).rejects.toThrow(/not a user message/);
  });

  it('deletes entries and snapshots, keeping a baseline a fork still uses', async () => {
    const store = freshStore();
    const parent = await store.createSession();
    const other = await store.createSession();
    await store.appendEntry(other.id, user('other'));
    await store.saveSnapshot(parent.id, 'baseline', zip('base'));
    await store.appendEntry(parent.id, user('hello'));
    await store.saveSnapshot(parent.id, { checkpoint: 0 }, zip('cp0'));
    await store.saveSnapshot(parent.id, 'latest', zip('latest'));
    const { session: fork } = await store.forkSession(parent.id, 0);

    await store.deleteSession(parent.id);
    expect(await store.getSession(parent.id)).toBeUndefined();
    await expect(store.loadEntries(parent.id)).rejects.toThrow(/does not exist/);
    expect(await store.loadSnapshot(parent.id, 'latest')).toBeUndefined();
    expect(await store.loadSnapshot(parent.id, { checkpoint: 0 })).toBeUndefined();
    expect(await store.loadSnapshot(fork.id, 'baseline')).toEqual(zip('base'));

    await store.deleteSession(fork.id);
    // Nothing of either session remains; the unrelated one is intact.
    const keysLeft = await rawKeys(store, fork.id, parent.id);
    expect(keysLeft).toEqual([]);
    expect((await store.loadEntries(other.id)).map((m) => m.content)).toEqual(['other']);
  });

  it('a fork that gets its own baseline stops sharing, and the unused old one is removed', async () => {
    const store = freshStore();
    const parent = await store.createSession();
    await store.saveSnapshot(parent.id, 'baseline', zip('base'));
    await store.appendEntry(parent.id, user('hello'));
    const { session: fork } = await store.forkSession(parent.id, 0);
    await store.saveSnapshot(fork.id, 'baseline', zip('fork base'));
    expect(await store.loadSnapshot(fork.id, 'baseline')).toEqual(zip('fork base'));
    expect(await store.loadSnapshot(parent.id, 'baseline')).toEqual(zip('base'));
    await store.deleteSession(parent.id);
    expect(await rawKeys(store, parent.id)).toEqual([]);
  });

  it('recoverSession answers tool calls cut off by a reload, and persists the answers', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, user('run two things'));
    await store.appendEntry(id, assistant([call('a'), call('b')]));
    await store.appendEntry(id, result('a'));
    const recovered = await store.recoverSession(id);
    expect(recovered.length).toBe(4);
    expect(recovered[3]).toMatchObject({ role: 'toolResult', toolCallId: 'b', isError: true });
    expect(JSON.stringify(recovered[3])).toContain(ABORTED_BY_RELOAD);
    expect(await store.loadEntries(id)).toEqual(recovered);
    expect(await store.recoverSession(id)).toEqual(recovered); // idempotent
  });

  it('keeps a push record with the session, and reads a damaged one as absent', async () => {
    const store = freshStore();
    const session = await store.createSession();
    const pushRecord = { host: 'github' as const, base: 'a'.repeat(40), record: { branch: 'conch/x', blobs: [] } };
    await store.updateSession(session.id, { pushRecord });
    expect((await store.getSession(session.id))?.pushRecord).toEqual(pushRecord);
    for (const m of transcript(1)) await store.appendEntry(session.id, m);
    expect((await store.forkSession(session.id, 0)).session.pushRecord).toBeUndefined();

    await store.updateSession(session.id, { pushRecord: { ...pushRecord, base: 'not a sha' } });
    expect((await store.getSession(session.id))?.pushRecord).toBeUndefined();
  });

  it('keeps the folder of a folder import in the origin, and reads one that climbs out as a damaged origin', async () => {
    const store = freshStore();
    const session = await store.createSession();
    const origin = { host: 'github' as const, web: 'https://github.com', owner: 'octo', repo: 'app', ref: 'main', sha: 'b'.repeat(40), folder: 'docs/site' };
    await store.updateSession(session.id, { origin });
    expect((await store.getSession(session.id))?.origin).toEqual(origin);
    await store.updateSession(session.id, { origin: { ...origin, folder: '../elsewhere' } });
    expect((await store.getSession(session.id))?.origin).toBeUndefined();
  });

  it('settings round-trip', async () => {
    const store = freshStore();
    expect(await store.getSettings()).toBeUndefined();
    await store.setSettings({ provider: 'anthropic', keys: { anthropic: 'sk-ant-x' } });
    expect(await store.getSettings()).toEqual({ provider: 'anthropic', keys: { anthropic: 'sk-ant-x' } });
  });

  it('reports damaged stored messages clearly instead of handing them on', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, { role: 'user', content: [{ type: 'text', text: 7 }], timestamp: 1 } as never);
    await expect(store.loadEntries(id)).rejects.toThrow(/message 0 .* damaged \(content\/0\/text: expected string/);
  });

  it('imports a seeded session atomically under a new id', async () => {
    const store = freshStore();
    const messages = transcript(1);
    const session = await store.importSession({
      title: 'Shared',
      model: 'm',
      provider: 'p',
      messages,
      latest: zip('w'),
      baseline: zip('b'),
      checkpoints: new Map([[0, zip('c0')]]),
    });
    expect(session.title).toBe('Shared');
    expect(session.messageCount).toBe(4);
    expect(session.importedAt).toBeTypeOf('number');
    expect(await store.loadEntries(session.id)).toEqual(messages);
    expect(await store.loadSnapshot(session.id, 'baseline')).toEqual(zip('b'));
    expect(await store.listCheckpoints(session.id)).toEqual([0]);
  });
});

describe('a full disk', () => {
  async function withQuotaFailures<T>(shouldFail: (key: IDBValidKey) => boolean, run: () => Promise<T>, error: () => unknown) {
    const proto = IDBObjectStore.prototype;
    const original = proto.put;
    proto.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (key !== undefined && shouldFail(key)) throw error();
      return original.call(this, value, key);
    };
    try {
      return await run();
    } finally {
      proto.put = original;
    }
  }

  const variants: [string, () => unknown][] = [
    ['QuotaExceededError', () => new DOMException('Quota exceeded', 'QuotaExceededError')],
    ['legacy code 22', () => Object.assign(new Error('quota'), { code: 22 })],
    ['Firefox NS_ERROR_DOM_QUOTA_REACHED', () => Object.assign(new Error('quota'), { name: 'NS_ERROR_DOM_QUOTA_REACHED' })],
  ];

  it.each(variants)('an append failing with %s becomes StorageFullError and damages nothing', async (_, error) => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, user('first'));
    const before = await store.getSession(id);
    const failure = await withQuotaFailures((key) => String(key).endsWith('/00000001'), () => store.appendEntry(id, user('second')), error).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StorageFullError);
    expect((failure as Error).message).toMatch(/Browser storage is full: could not save the latest message.*deleting sessions or exporting them/);
    expect(await store.loadEntries(id)).toEqual([user('first')]);
    expect(await store.getSession(id)).toEqual(before);
    expect(await store.appendEntry(id, user('second'))).toBe(1); // works again once there is room
  });

  it('a failed snapshot keeps the previous one, and the checkpoint list unchanged', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.saveSnapshot(id, 'latest', zip('good'));
    await store.saveSnapshot(id, { checkpoint: 0 }, zip('cp0'));
    const quota = () => new DOMException('Quota exceeded', 'QuotaExceededError');
    await expect(withQuotaFailures(() => true, () => store.saveSnapshot(id, 'latest', zip('too big')), quota)).rejects.toBeInstanceOf(StorageFullError);
    await expect(withQuotaFailures((k) => String(k).includes('checkpoint'), () => store.saveSnapshot(id, { checkpoint: 4 }, zip('cp4')), quota)).rejects.toThrow(/could not save the checkpoint/);
    expect(await store.loadSnapshot(id, 'latest')).toEqual(zip('good'));
    expect(await store.listCheckpoints(id)).toEqual([0]);
  });
});

/** Every key in entries/snapshots/sessions that belongs to one of `ids`, read straight from IndexedDB. */
async function rawKeys(store: SessionStore, ...ids: string[]): Promise<string[]> {
  void store;
  const name = `test-${counter - 1}-conch`;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const keys: string[] = [];
  for (const storeName of ['sessions', 'entries', 'snapshots']) {
    const all = await new Promise<IDBValidKey[]>((resolve) => {
      const req = db.transaction(storeName).objectStore(storeName).getAllKeys();
      req.onsuccess = () => resolve(req.result);
    });
    keys.push(...all.map(String).filter((k) => ids.some((id) => k.startsWith(id))));
  }
  db.close();
  return keys;
}
