// Deleting the folders and files no snapshot refers to any more (after a session or checkpoints were deleted, or a
// latest snapshot replaced). Mark, then sweep:
// - mark, without holding anything up: every tree reachable from the snapshot refs, read through the object cache;
//   the trees and blobs not reached are candidates;
// - sweep, in one readwrite transaction over refs, trees and blobs (so no snapshot commits meanwhile): the refs are
//   read again, and trees reachable from a ref that the mark did not see (a snapshot committed since) are walked,
//   so a candidate that a new snapshot refers to is kept; only what is still unreached is deleted.
// A snapshot commits its objects and its ref in one transaction, so there is never a moment where its objects are
// stored but unreferenced; objects only in memory (not yet committed) are never the collector's to see. A pack of
// files (blob-packs.ts) goes once none of its files is reached.
import type { ObjectId } from '../../runtime/object-id';
import { isPackKey, packKeys, readPackIndexes } from './blob-packs';
import { requestResult, type Database } from '../db';
import type { ObjectStore } from './object-store';
import { readStoredSnapshot } from './snapshot-refs';
import type { TreeSource } from './trees/build';
import { decodeTree } from './trees/codec';
import { walkTrees } from './trees/walk';
import type { GarbageReport, CollectOptions } from './snapshot-types';

export type { GarbageReport, CollectOptions };

/** Deletes unreferenced trees and blobs; returns how many of each. */
export async function collectGarbage(db: Database, objects: ObjectStore, options: CollectOptions = {}): Promise<GarbageReport> {
  const roots = await db.transact(['snapshots'], 'readonly', 'the storage clean-up', (s) => rootsIn(s.snapshots));
  const reached = { trees: new Set<ObjectId>(), blobs: new Set<ObjectId>() };
  await walk(roots, reached, objects);
  const [treeKeys, blobKeys, packs] = await db.transact(['trees', 'blobs'], 'readonly', 'the storage clean-up', (s) =>
    Promise.all([requestResult(s.trees.getAllKeys()), requestResult(s.blobs.getAllKeys()), readPackIndexes(s.blobs)]),
  );
  const unreached = (ids: ObjectId[]) => ids.every((id) => !reached.blobs.has(id));
  const candidates = {
    trees: (treeKeys as string[]).filter((id) => !reached.trees.has(id)),
    blobs: (blobKeys as string[]).filter((id) => !isPackKey(id) && !reached.blobs.has(id)),
    packs: [...packs].filter(([, record]) => unreached(record.ids)),
  };
  await options.afterMark?.();
  if (candidates.trees.length === 0 && candidates.blobs.length === 0 && candidates.packs.length === 0) return { trees: 0, blobs: 0 };

  return db.transact(['snapshots', 'trees', 'blobs'], 'readwrite', 'the storage clean-up', async (s) => {
    // Snapshots committed since the mark: walk what they reach that the mark did not.
    const now = await rootsIn(s.snapshots);
    await walk(now, reached, {
      async tree(id) {
        const record = await requestResult(s.trees.get(id));
        if (!(record instanceof Uint8Array)) throw new Error(`missing tree ${id}`);
        return decodeTree(id, record);
      },
    });
    let trees = 0;
    let blobs = 0;
    for (const id of candidates.trees) {
      if (reached.trees.has(id)) continue;
      s.trees.delete(id);
      trees++;
    }
    for (const id of candidates.blobs) {
      if (reached.blobs.has(id)) continue;
      s.blobs.delete(id);
      blobs++;
    }
    const gonePacks: string[] = [];
    for (const [pack, record] of candidates.packs) {
      if (!unreached(record.ids)) continue;
      for (const key of packKeys(pack)) s.blobs.delete(key);
      gonePacks.push(pack);
      blobs += record.ids.length;
    }
    objects.packs.forget(gonePacks);
    return { trees, blobs };
  });
}

/** The root trees of every stored snapshot (zip-era values have none). */
async function rootsIn(snapshots: IDBObjectStore): Promise<ObjectId[]> {
  const values = (await requestResult(snapshots.getAll())) as unknown[];
  const roots: ObjectId[] = [];
  for (const value of values) {
    const stored = readStoredSnapshot(value);
    if (stored && 'tree' in stored) roots.push(stored.tree);
  }
  return roots;
}

/**
 * Adds everything reachable from `roots` to `reached`, not descending into trees already there. A tree that cannot be
 * read throws: what it refers to cannot be known, so the collection stops and deletes nothing.
 */
async function walk(roots: ObjectId[], reached: { trees: Set<ObjectId>; blobs: Set<ObjectId> }, source: TreeSource): Promise<void> {
  await walkTrees(source, roots, (tree) => {
    for (const entry of tree.entries) if (entry.kind === 'file') reached.blobs.add(entry.id);
  }, reached.trees);
}
