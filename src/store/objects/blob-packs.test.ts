import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PACK_BYTES, PACK_FROM } from './blob-packs';
import { requestResult } from '../db';
import { createSessionStore } from '../sessions/session-store';
import { filesOfTree, snapshotOfFiles } from './trees/files';
import type { SessionStore } from '../types';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);

let counter = 0;
const opened: SessionStore[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});
function storeAt(prefix: string): SessionStore {
  const store = createSessionStore({ prefix, collectAfterMs: 60_000 });
  opened.push(store);
  return store;
}

/** A repo of `count` distinct files (about 2 KB each), as an import brings it. */
function repo(count: number, tag = ''): Map<string, Uint8Array> {
  return new Map(Array.from({ length: count }, (_, i) => [`src/d${i % 20}/f${i}.ts`, enc(`// ${tag} file ${i}\n${'export const x = 1;\n'.repeat(100)}`)]));
}

/** How many records the `blobs` store holds, read straight from IndexedDB. */
async function blobRecords(prefix: string): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(`${prefix}conch`);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const count = await requestResult(db.transaction('blobs').objectStore('blobs').count());
  db.close();
  return count;
}

async function filesAt(store: SessionStore, id: string, ref: 'latest' | 'baseline'): Promise<Map<string, Uint8Array>> {
  const stored = await store.loadStoredSnapshot(id, ref);
  if (!stored || !('tree' in stored)) throw new Error('no tree snapshot');
  return (await filesOfTree(store.objects, stored.tree)).files;
}

describe('files stored in packs', () => {
  it('an import of many files takes a few records, reads back whole, and a later edit is one record of its own', async () => {
    const prefix = `packs-${counter++}-`;
    const store = storeAt(prefix);
    const files = repo(1200);
    const bytes = [...files.values()].reduce((n, b) => n + b.length, 0);
    const { id } = await store.createSession();
    await store.commitSnapshot(id, 'baseline', await snapshotOfFiles(files));
    const records = await blobRecords(prefix);
    expect(records).toBeLessThanOrEqual(2 * Math.ceil(bytes / PACK_BYTES) + 2); // a bytes and an index record per pack
    expect(records).toBeLessThan(files.size / 100);

    const read = await filesAt(store, id, 'baseline');
    expect(read.size).toBe(files.size);
    for (const [path, data] of files) expect(dec(read.get(path)), path).toBe(dec(data));

    const edited = new Map(files).set('src/d3/f3.ts', enc('edited'));
    await store.commitSnapshot(id, 'latest', await snapshotOfFiles(edited));
    expect(await blobRecords(prefix)).toBe(records + 1);
    expect(dec((await filesAt(store, id, 'latest')).get('src/d3/f3.ts'))).toBe('edited');
  });

  it('are found by another tab, and the same files committed again there cost nothing', async () => {
    const prefix = `packs-${counter++}-`;
    const files = repo(PACK_FROM + 10);
    const first = storeAt(prefix);
    const { id } = await first.createSession();
    await first.commitSnapshot(id, 'baseline', await snapshotOfFiles(files));
    const records = await blobRecords(prefix);

    const second = storeAt(prefix); // another tab: it has not seen the packs being written
    expect(dec((await filesAt(second, id, 'baseline')).get('src/d1/f1.ts'))).toBe(dec(files.get('src/d1/f1.ts')));
    const other = await second.createSession();
    await second.commitSnapshot(other.id, 'latest', await snapshotOfFiles(files));
    expect(await blobRecords(prefix)).toBe(records);
  });

  it('go when no snapshot reaches any of their files, and stay while one file is still reached', async () => {
    const prefix = `packs-${counter++}-`;
    const store = storeAt(prefix);
    const files = repo(PACK_FROM * 2, 'big');
    const a = await store.createSession();
    await store.commitSnapshot(a.id, 'baseline', await snapshotOfFiles(files));
    const b = await store.createSession();
    const kept = 'src/d0/f0.ts';
    await store.commitSnapshot(b.id, 'latest', await snapshotOfFiles(new Map([[kept, files.get(kept)!]])));

    await store.deleteSession(a.id);
    const partly = await store.collectGarbage();
    expect(dec((await filesAt(store, b.id, 'latest')).get(kept))).toBe(dec(files.get(kept))); // its pack stays
    const stillThere = await blobRecords(prefix);
    expect(stillThere).toBeGreaterThan(0);

    await store.deleteSession(b.id);
    const rest = await store.collectGarbage();
    expect(partly.blobs + rest.blobs).toBe(files.size); // every packed file counted once, when its pack went
    expect(await blobRecords(prefix)).toBe(0);
  });

  it('a full disk while packs are written leaves the previous snapshot whole and stores nothing of the new one', async () => {
    const prefix = `packs-${counter++}-`;
    const store = storeAt(prefix);
    const { id } = await store.createSession();
    const small = new Map([['a.txt', enc('before')]]);
    await store.commitSnapshot(id, 'latest', await snapshotOfFiles(small));
    const before = await blobRecords(prefix);

    const put = IDBObjectStore.prototype.put;
    let puts = 0;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'blobs' && ++puts === 3) throw new DOMException('Quota exceeded', 'QuotaExceededError');
      return put.apply(this, args);
    };
    try {
      await expect(store.commitSnapshot(id, 'latest', await snapshotOfFiles(repo(PACK_FROM * 3)))).rejects.toThrow();
    } finally {
      IDBObjectStore.prototype.put = put;
    }
    expect(await blobRecords(prefix)).toBe(before);
    expect(dec((await filesAt(store, id, 'latest')).get('a.txt'))).toBe('before');
  });
});
