// What each session holds in browser storage: the bytes of every file and folder its snapshots reach, and of those
// the bytes no other session reaches (what deleting it, or its checkpoints, can free).
import type { ObjectId } from '../../runtime/object-id';
import { requestResult, type Database } from '../db';
import type { ObjectStore } from './object-store';
import { baselineKey, checkpointKey, latestKey, readStoredSnapshot } from './snapshot-refs';
import { encodeTree } from './trees/codec';
import { walkTrees } from './trees/walk';
import type { SessionUsage, SnapshotHolder } from './snapshot-types';

export type { SessionUsage };

type Reach = { objects: Map<ObjectId, number>; zipBytes: number };

/** Storage use per session, largest unique use first. */
export async function storageUsage(db: Database, objects: ObjectStore, sessions: SnapshotHolder[]): Promise<SessionUsage[]> {
  const values = await db.transact(['snapshots'], 'readonly', 'the storage figures', async (s) => {
    const [keys, all] = await Promise.all([requestResult(s.snapshots.getAllKeys()), requestResult(s.snapshots.getAll())]);
    return new Map((keys as string[]).map((key, i) => [key, readStoredSnapshot(all[i])]));
  });
  const treeBytes = new Map<ObjectId, number>();
  const reach = new Map<string, Reach>();
  for (const session of sessions) {
    const keys = [latestKey(session.id), ...session.checkpoints.map((seq) => checkpointKey(session.id, seq))];
    if (session.baselineId) keys.push(baselineKey(session.baselineId));
    const own: Reach = { objects: new Map(), zipBytes: 0 };
    const roots: ObjectId[] = [];
    for (const key of keys) {
      const stored = values.get(key);
      if (!stored) continue;
      if ('tree' in stored) roots.push(stored.tree);
      else own.zipBytes += stored.zip.length;
    }
    await reachFrom(objects, roots, own.objects, treeBytes);
    reach.set(session.id, own);
  }
  const holders = new Map<ObjectId, number>();
  for (const own of reach.values()) for (const id of own.objects.keys()) holders.set(id, (holders.get(id) ?? 0) + 1);
  return sessions
    .map((session) => {
      const own = reach.get(session.id)!;
      let total = own.zipBytes;
      let unique = own.zipBytes;
      for (const [id, bytes] of own.objects) {
        total += bytes;
        if (holders.get(id) === 1) unique += bytes;
      }
      return { id: session.id, title: session.title, checkpoints: session.checkpoints.length, totalBytes: total, uniqueBytes: unique };
    })
    .sort((a, b) => b.uniqueBytes - a.uniqueBytes);
}

/** Every tree and blob reachable from `roots`, with its stored size, into `out`. */
async function reachFrom(objects: ObjectStore, roots: ObjectId[], out: Map<ObjectId, number>, treeBytes: Map<ObjectId, number>): Promise<void> {
  await walkTrees(objects, roots, (tree) => {
    let bytes = treeBytes.get(tree.id);
    if (bytes === undefined) {
      bytes = encodeTree(tree).length;
      treeBytes.set(tree.id, bytes);
    }
    out.set(tree.id, bytes);
    for (const entry of tree.entries) if (entry.kind === 'file') out.set(entry.id, entry.size);
  });
}
