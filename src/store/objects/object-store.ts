// The content-addressed objects of snapshots: `blobs` (a file's bytes by git blob id) and `trees` (a folder's
// manifest by git tree id). Objects never change once written, so reads are cached freely; writes go into the
// caller's transaction next to the ref that needs them, so a snapshot and its objects commit (or fail) together.
import { EMPTY_TREE_ID, type ObjectId } from '../../runtime/object-id';
import { packedAmong, PACK_FROM, PackIndex, putPacked, readPacked } from './blob-packs';
import { requestResult, type Database } from '../db';
import type { TreeSource } from './trees/build';
import { decodeTree, encodeTree, type Tree } from './trees/codec';

/** Objects a snapshot needs that the store may not have yet. */
export type NewObjects = { blobs: Map<ObjectId, Uint8Array>; trees: Map<ObjectId, Tree> };

/** A snapshot object the store should have and does not: the snapshot referring to it is damaged. */
export class MissingObjectError extends Error {
  constructor(readonly objectId: ObjectId, what: 'file' | 'folder') {
    super(`A ${what} of this snapshot (${objectId.slice(0, 12)}) is missing from browser storage, so the snapshot cannot be read whole. Restore another checkpoint, or export the session to keep what is readable.`);
  }
}

const CACHED_TREES = 50_000;
// Puts are issued a batch at a time, each batch after the previous one was written, so the page gets a turn
// between batches while the transaction stays open.
const PUT_BATCH_BYTES = 4 * 1024 ** 2;
const PUT_BATCH_COUNT = 1000;

/** Reads snapshot objects; trees asked for together (siblings in a walk) are read in one transaction. */
export class ObjectStore implements TreeSource {
  private readonly cache = new Map<ObjectId, Tree>();
  private waiting = new Map<ObjectId, { resolve(tree: Tree): void; reject(error: unknown): void }[]>();
  private scheduled = false;
  /** Which pack holds each file stored in a pack (blob-packs.ts). */
  readonly packs = new PackIndex();

  constructor(private readonly db: Database) {}

  /** The tree `id`; throws MissingObjectError when the store does not have it. */
  tree(id: ObjectId): Promise<Tree> {
    if (id === EMPTY_TREE_ID) return Promise.resolve({ id, entries: [] }); // every store has it, stored or not
    const cached = this.cache.get(id);
    if (cached) return Promise.resolve(cached);
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(id);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(id, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => void this.loadWaiting());
      }
    });
  }

  /** The bytes of blobs `ids`; throws MissingObjectError for the first one the store does not have. */
  async blobs(ids: Iterable<ObjectId>): Promise<Map<ObjectId, Uint8Array>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    return this.db.transact(['blobs'], 'readonly', 'the snapshot', async (s) => {
      await this.packs.load(s.blobs);
      // Files this tab knows to be packed are read from their packs; the others on their own, then from packs
      // another tab wrote.
      const out = await readPacked(s.blobs, wanted.filter((id) => this.packs.where(id)), this.packs);
      const single = wanted.filter((id) => !out.has(id));
      const values = await Promise.all(single.map((id) => requestResult(s.blobs.get(id))));
      single.forEach((id, i) => {
        const value = values[i];
        if (value instanceof Uint8Array) out.set(id, value);
      });
      const elsewhere = wanted.filter((id) => !out.has(id));
      if (elsewhere.length > 0) for (const [id, value] of await readPacked(s.blobs, elsewhere, this.packs)) out.set(id, value);
      for (const id of wanted) if (!out.has(id)) throw new MissingObjectError(id, 'file');
      return new Map(wanted.map((id) => [id, out.get(id)!]));
    });
  }

  /** Keeps trees known to be stored (just written) for later reads. */
  remember(trees: Iterable<Tree>): void {
    for (const tree of trees) this.keep(tree);
  }

  private async loadWaiting(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    const ids = [...batch.keys()];
    try {
      const records = await this.db.transact(['trees'], 'readonly', 'the snapshot', (s) => Promise.all(ids.map((id) => requestResult(s.trees.get(id)))));
      ids.forEach((id, i) => {
        const record = records[i];
        const waiters = batch.get(id) ?? [];
        if (!(record instanceof Uint8Array)) {
          for (const w of waiters) w.reject(new MissingObjectError(id, 'folder'));
          return;
        }
        try {
          const tree = decodeTree(id, record);
          this.keep(tree);
          for (const w of waiters) w.resolve(tree);
        } catch (error) {
          for (const w of waiters) w.reject(error);
        }
      });
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }

  private keep(tree: Tree): void {
    if (this.cache.size >= CACHED_TREES) this.cache.delete(this.cache.keys().next().value as ObjectId);
    this.cache.set(tree.id, tree);
  }
}

/**
 * Writes the objects the store lacks, inside a live transaction, and checks that everything the new trees point at
 * is either written here or already stored (throws MissingObjectError otherwise, aborting the snapshot). Returns the
 * bytes written.
 */
export async function putObjects(
  stores: { blobs: IDBObjectStore; trees: IDBObjectStore },
  objects: NewObjects,
  packs: PackIndex = new PackIndex(),
): Promise<number> {
  const [blobsThere, treesThere] = await Promise.all([
    storedBlobs(stores.blobs, [...objects.blobs.keys()], packs),
    present(stores.trees, [...objects.trees.keys()]),
  ]);
  const newBlobs = [...objects.blobs].filter(([id]) => !blobsThere.has(id));
  const puts: { store: IDBObjectStore; key: ObjectId; value: Uint8Array }[] = [];
  if (newBlobs.length < PACK_FROM) for (const [id, data] of newBlobs) puts.push({ store: stores.blobs, key: id, value: data });
  for (const [id, tree] of objects.trees) if (!treesThere.has(id)) puts.push({ store: stores.trees, key: id, value: encodeTree(tree) });

  // Everything a new tree points at must be there once this commits.
  const neededBlobs = new Set<ObjectId>();
  const neededTrees = new Set<ObjectId>();
  for (const [id, tree] of objects.trees) {
    if (treesThere.has(id)) continue;
    for (const entry of tree.entries) {
      if (entry.kind === 'file' && !objects.blobs.has(entry.id)) neededBlobs.add(entry.id);
      if (entry.kind === 'dir' && !objects.trees.has(entry.id) && entry.id !== EMPTY_TREE_ID) neededTrees.add(entry.id);
    }
  }
  const [blobsFound, treesFound] = await Promise.all([storedBlobs(stores.blobs, [...neededBlobs], packs), present(stores.trees, [...neededTrees])]);
  for (const id of neededBlobs) if (!blobsFound.has(id)) throw new MissingObjectError(id, 'file');
  for (const id of neededTrees) if (!treesFound.has(id)) throw new MissingObjectError(id, 'folder');

  let written = 0;
  let batchBytes = 0;
  let last: IDBRequest | null = null;
  if (newBlobs.length >= PACK_FROM) {
    last = putPacked(stores.blobs, newBlobs, packs);
    for (const [, data] of newBlobs) written += data.length;
  }
  for (let i = 0; i < puts.length; i++) {
    const { store, key, value } = puts[i];
    last = store.put(value, key);
    written += value.length;
    batchBytes += value.length;
    if (batchBytes >= PUT_BATCH_BYTES || (i + 1) % PUT_BATCH_COUNT === 0) {
      await requestResult(last);
      batchBytes = 0;
    }
  }
  if (last) await requestResult(last);
  return written;
}

// Past this many ids one listing of every key is cheaper than a lookup each (an import of a whole repo).
const LIST_KEYS_OVER = 2000;

/** Which of `ids` the `blobs` store has, on their own or in a pack. */
async function storedBlobs(blobs: IDBObjectStore, ids: ObjectId[], packs: PackIndex): Promise<Set<ObjectId>> {
  const there = await present(blobs, ids);
  const packed = await packedAmong(blobs, ids.filter((id) => !there.has(id)), packs);
  for (const id of packed) there.add(id);
  return there;
}

/** Which of `ids` the store has. */
export async function present(store: IDBObjectStore, ids: ObjectId[]): Promise<Set<ObjectId>> {
  if (ids.length > LIST_KEYS_OVER) {
    const all = new Set((await requestResult(store.getAllKeys())) as string[]);
    return new Set(ids.filter((id) => all.has(id)));
  }
  const counts = await Promise.all(ids.map((id) => requestResult(store.count(id))));
  return new Set(ids.filter((_, i) => counts[i] > 0));
}
