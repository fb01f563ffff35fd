import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { StorageFullError } from '../errors';
import { requestResult } from '../db';
import { createSessionStore } from '../sessions/session-store';
import { user } from '../testing/messages';
import { filesOfTree, snapshotOfFiles } from './trees/files';
import type { SessionStore, SnapshotCommit } from '../types';
import { unzipToMap } from '../zip/repo-zip';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, enc(t)]));

let counter = 0;
const opened: SessionStore[] = [];
let prefix = '';
function freshStore(): SessionStore {
  prefix = `objects-${counter++}-`;
  const store = createSessionStore({ prefix, collectAfterMs: 60_000 });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** Record counts and value bytes of the object stores, read straight from IndexedDB. */
async function census(): Promise<{ blobs: number; trees: number; blobBytes: number }> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(`${prefix}conch`);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const tx = db.transaction(['blobs', 'trees']);
  const [blobs, trees] = await Promise.all([requestResult(tx.objectStore('blobs').getAll()), requestResult(tx.objectStore('trees').count())]);
  db.close();
  return { blobs: blobs.length, trees, blobBytes: (blobs as Uint8Array[]).reduce((n, b) => n + b.length, 0) };
}

async function commitFiles(store: SessionStore, id: string, ref: Parameters<SessionStore['commitSnapshot']>[1], contents: Map<string, Uint8Array>): Promise<SnapshotCommit> {
  const snapshot = await snapshotOfFiles(contents);
  await store.commitSnapshot(id, ref, snapshot);
  return snapshot;
}

async function filesAt(store: SessionStore, id: string, ref: Parameters<SessionStore['loadStoredSnapshot']>[1]): Promise<Record<string, string>> {
  const stored = await store.loadStoredSnapshot(id, ref);
  if (!stored || !('tree' in stored)) throw new Error('no tree snapshot');
  const { files: read } = await filesOfTree(store.objects, stored.tree);
  return Object.fromEntries([...read].map(([p, d]) => [p, dec(d)]));
}

describe('content-addressed snapshots', () => {
  it('store each file once across baseline, checkpoints, latest, forks and sessions', async () => {
    const store = freshStore();
    const repo = files({ 'src/a.ts': 'a'.repeat(1000), 'src/b.ts': 'b'.repeat(1000), 'README.md': 'readme' });
    const one = await store.createSession();
    await commitFiles(store, one.id, 'baseline', repo);
    await commitFiles(store, one.id, { checkpoint: 0 }, repo);
    await store.appendEntry(one.id, user('edit a'));
    await commitFiles(store, one.id, 'latest', new Map([...repo, ['src/a.ts', enc('edited')]]));
    expect(await census()).toMatchObject({ blobs: 4, blobBytes: 2000 + 6 + 6 });

    const other = await store.createSession();
    await commitFiles(store, other.id, 'baseline', repo);
    await commitFiles(store, other.id, 'latest', repo);
    const before = await census();
    expect(before.blobs).toBe(4); // the second session's identical files cost nothing

    const { session: fork } = await store.forkSession(one.id, 0);
    expect(await census()).toEqual(before); // a fork copies refs, never objects
    expect(await filesAt(store, fork.id, 'latest')).toEqual({ 'src/a.ts': 'a'.repeat(1000), 'src/b.ts': 'b'.repeat(1000), 'README.md': 'readme' });
    expect(await filesAt(store, one.id, 'latest')).toMatchObject({ 'src/a.ts': 'edited' });
    // The zip form is built from the trees on demand.
    expect(dec((await unzipToMap((await store.loadSnapshot(one.id, 'latest'))!)).get('src/a.ts'))).toBe('edited');
  });

  it('a commit whose trees point at objects the store lacks is refused, and the previous snapshot stays', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    const good = await commitFiles(store, id, 'latest', files({ 'a.txt': 'good' }));
    const next = await snapshotOfFiles(files({ 'a.txt': 'next' }));
    next.objects.blobs.clear(); // a blob the tree needs is not handed over
    await expect(store.commitSnapshot(id, 'latest', next)).rejects.toThrow(/missing/);
    expect(await store.loadStoredSnapshot(id, 'latest')).toEqual({ tree: good.root });
  });

  it('a full disk in the middle of a snapshot leaves the previous snapshot whole, and nothing of the new one', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    const before = await commitFiles(store, id, 'latest', files({ 'a.txt': 'v1', 'b.txt': 'b' }));
    const objectsBefore = await census();
    const next = await snapshotOfFiles(files({ 'a.txt': 'v2', 'b.txt': 'b', 'c.txt': 'new file', 'd.txt': 'another' }));
    const proto = IDBObjectStore.prototype;
    const put = proto.put;
    let puts = 0;
    proto.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      // The second object written fails, as a full disk would, after the first one went in.
      if (this.name === 'blobs' && ++puts === 2) throw new DOMException('Quota exceeded', 'QuotaExceededError');
      return put.call(this, value, key);
    };
    try {
      await expect(store.commitSnapshot(id, 'latest', next)).rejects.toBeInstanceOf(StorageFullError);
    } finally {
      proto.put = put;
    }
    expect(puts).toBe(2);
    expect(await store.loadStoredSnapshot(id, 'latest')).toEqual({ tree: before.root });
    expect(await filesAt(store, id, 'latest')).toEqual({ 'a.txt': 'v1', 'b.txt': 'b' });
    expect(await census()).toEqual(objectsBefore);
    await store.commitSnapshot(id, 'latest', next); // works once there is room
    expect(await filesAt(store, id, 'latest')).toMatchObject({ 'c.txt': 'new file' });
  });
});

describe('collecting unreferenced snapshot data', () => {
  it('deletes what only a deleted session held, keeps what others still reach', async () => {
    const store = freshStore();
    const shared = files({ 'shared.txt': 'in both sessions' });
    const a = await store.createSession();
    const b = await store.createSession();
    await commitFiles(store, a.id, 'latest', new Map([...shared, ['only-a.txt', enc('a alone')]]));
    await commitFiles(store, b.id, 'latest', shared);
    await store.deleteSession(a.id);
    const report = await store.collectGarbage();
    expect(report).toEqual({ trees: 1, blobs: 1 });
    expect(await census()).toMatchObject({ blobs: 1, trees: 1 });
    expect(await filesAt(store, b.id, 'latest')).toEqual({ 'shared.txt': 'in both sessions' });
    expect(await store.collectGarbage()).toEqual({ trees: 0, blobs: 0 });
  });

  it('never deletes an object a snapshot committed while it ran refers to', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    const old = files({ 'reused.txt': 'content that comes back' });
    await commitFiles(store, id, { checkpoint: 0 }, old);
    await store.dropCheckpoints(id, 0); // its blob and tree are garbage now
    // Between the collector's mark and its sweep, a snapshot that holds the same file again is committed: its
    // commit finds the blob stored and writes only its tree.
    const report = await store.collectGarbage({
      afterMark: async () => {
        await commitFiles(store, id, 'latest', new Map([...old, ['new.txt', enc('new')]]));
      },
    });
    expect(report.blobs).toBe(0);
    expect(await filesAt(store, id, 'latest')).toEqual({ 'reused.txt': 'content that comes back', 'new.txt': 'new' });
  });

  it('runs on its own in the background after a deletion', async () => {
    prefix = `objects-${counter++}-`;
    const store = createSessionStore({ prefix, collectAfterMs: 10 });
    opened.push(store);
    const { id } = await store.createSession();
    await commitFiles(store, id, 'latest', files({ 'x.txt': 'x' }));
    await store.deleteSession(id);
    for (let i = 0; i < 200 && (await census()).blobs > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(await census()).toMatchObject({ blobs: 0, trees: 0 });
  });
});

describe('storage figures and freeing space', () => {
  it('counts what each session alone holds, and dropping old checkpoints frees theirs', async () => {
    const store = freshStore();
    const a = await store.createSession({ title: 'A' });
    const b = await store.createSession({ title: 'B' });
    const common = 'c'.repeat(5000);
    await commitFiles(store, a.id, { checkpoint: 0 }, files({ 'common.txt': common, 'v.txt': '1'.repeat(1000) }));
    await commitFiles(store, a.id, { checkpoint: 4 }, files({ 'common.txt': common, 'v.txt': '2'.repeat(1000) }));
    await commitFiles(store, a.id, 'latest', files({ 'common.txt': common, 'v.txt': '3'.repeat(1000) }));
    await commitFiles(store, b.id, 'latest', files({ 'common.txt': common }));
    const usage = await store.storageUsage();
    const ua = usage.find((u) => u.id === a.id)!;
    const ub = usage.find((u) => u.id === b.id)!;
    expect(ua.checkpoints).toBe(2);
    expect(ua.totalBytes).toBeGreaterThan(8000);
    expect(ua.uniqueBytes).toBeGreaterThanOrEqual(3000); // its three versions of v.txt (and their folders)
    expect(ua.uniqueBytes).toBeLessThan(4000); // not the file B holds too
    expect(ub.uniqueBytes).toBeLessThan(200); // only its own root folder
    expect(await store.dropCheckpoints(a.id, 1)).toEqual([0]);
    expect(await store.listCheckpoints(a.id)).toEqual([4]);
    await store.collectGarbage();
    const after = (await store.storageUsage()).find((u) => u.id === a.id)!;
    expect(ua.uniqueBytes - after.uniqueBytes).toBeGreaterThanOrEqual(1000);
    expect(await census()).toMatchObject({ blobs: 3 });
  });
});

describe('stores written before content addressing', () => {
  type Dump = { version: number; stores: Record<string, [string, unknown][]>; ids: { session: string; fork: string; other: string } };
  const fixture = JSON.parse(readFileSync(new URL('../testing/zip-era-store.json', import.meta.url), 'utf8')) as Dump;
  const revive = (value: unknown): unknown =>
    typeof value === 'object' && value !== null && '$bytes' in value ? new Uint8Array(Buffer.from((value as { $bytes: string }).$bytes, 'base64')) : value;

  /** The frozen store, written into a version-1 database as main's code left it. */
  async function loadFixture(): Promise<SessionStore> {
    prefix = `zip-era-${counter++}-`;
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(`${prefix}conch`, fixture.version);
      request.onupgradeneeded = () => {
        for (const name of Object.keys(fixture.stores)) request.result.createObjectStore(name);
      };
      request.onsuccess = () => {
        const db = request.result;
        const tx = db.transaction(Object.keys(fixture.stores), 'readwrite');
        for (const [name, rows] of Object.entries(fixture.stores)) for (const [key, value] of rows) tx.objectStore(name).put(revive(value), key);
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
      request.onerror = () => reject(request.error);
    });
    const store = createSessionStore({ prefix, collectAfterMs: 60_000 });
    opened.push(store);
    return store;
  }

  it('opens with the old snapshots readable, then converts them to trees losing nothing', async () => {
    const store = await loadFixture();
    const { session, fork, other } = fixture.ids;
    const zipsBefore = new Map<string, Map<string, Uint8Array>>();
    const refs = [
      [session, 'latest'],
      [session, 'baseline'],
      [session, { checkpoint: 0 }],
      [session, { checkpoint: 4 }],
      [session, { checkpoint: 8 }],
      [fork, 'latest'],
      [fork, 'baseline'],
      [fork, { checkpoint: 0 }],
      [other, 'latest'],
      [other, { checkpoint: 0 }],
    ] as const;
    for (const [id, ref] of refs) {
      const stored = await store.loadStoredSnapshot(id, ref);
      expect(stored && 'zip' in stored).toBe(true); // zip-era values are still read as they are
      zipsBefore.set(`${id} ${JSON.stringify(ref)}`, await unzipToMap((await store.loadSnapshot(id, ref))!));
    }
    expect((await store.loadEntries(session)).length).toBe(12);

    expect(await store.upgradeSnapshots(session)).toEqual({ converted: 5, unreadable: [] });
    expect(await store.upgradeSnapshots(fork)).toEqual({ converted: 2, unreadable: [] }); // its baseline is the parent's, done
    expect(await store.upgradeSnapshots(other)).toEqual({ converted: 2, unreadable: [] });
    expect(await store.upgradeSnapshots(session)).toEqual({ converted: 0, unreadable: [] });

    for (const [id, ref] of refs) {
      const stored = await store.loadStoredSnapshot(id, ref);
      expect(stored && 'tree' in stored).toBe(true);
      const now = await unzipToMap((await store.loadSnapshot(id, ref))!);
      expect(now).toEqual(zipsBefore.get(`${id} ${JSON.stringify(ref)}`));
    }
    // Empty folders came through, and every file is stored once for all ten snapshots.
    const latest = await store.loadStoredSnapshot(session, 'latest');
    const { folders } = await filesOfTree(store.objects, (latest as { tree: string }).tree);
    expect(folders).toContain('empty-folder');
    const distinct = new Set([...zipsBefore.values()].flatMap((m) => [...m.values()].map(dec)));
    expect((await census()).blobs).toBe(distinct.size);
    expect(dec(zipsBefore.get(`${session} "latest"`)!.get('src/app.js'))).toContain('"Hi, "');
  });

  it('keeps a zip it cannot read as it was', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, user('x'));
    await store.saveSnapshot(id, 'latest', enc('not a zip'));
    await store.saveSnapshot(id, { checkpoint: 0 }, (await store.loadSnapshot(id, 'latest'))!);
    const result = await store.upgradeSnapshots(id);
    expect(result.converted).toBe(0);
    expect(result.unreadable).toHaveLength(2);
    expect(await store.loadSnapshot(id, 'latest')).toEqual(enc('not a zip'));
  });
});

