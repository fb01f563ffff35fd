// A session's checkpoints as replay reads them: straight from the store, never writing to it. A zip-era checkpoint
// (stored before content addressing) is converted in memory, its objects kept here beside the store's.
import type { ObjectId } from '../../runtime/object-id';
import { snapshotOfZip, type SessionStore, type SnapshotRef, type Tree } from '../../store';
import type { ReplayCheckpoints, ReplayObjects } from './workspace-at-step';

/** The objects and checkpoint roots of stored session `sessionId`, read-only. */
export function storedCheckpoints(store: Pick<SessionStore, 'objects' | 'loadStoredSnapshot'>, sessionId: string, seqs: readonly number[]): { objects: ReplayObjects; checkpoints: ReplayCheckpoints } {
  const trees = new Map<ObjectId, Tree>();
  const blobs = new Map<ObjectId, Uint8Array>();
  const rootOf = async (ref: SnapshotRef): Promise<ObjectId | undefined> => {
    const stored = await store.loadStoredSnapshot(sessionId, ref);
    if (!stored) return undefined;
    if ('tree' in stored) return stored.tree;
    const converted = await snapshotOfZip(stored.zip);
    for (const [id, tree] of converted.objects.trees) trees.set(id, tree);
    for (const [id, data] of converted.objects.blobs) blobs.set(id, data);
    return converted.root;
  };
  const objects: ReplayObjects = {
    tree: (id) => {
      const tree = trees.get(id);
      return tree ? Promise.resolve(tree) : store.objects.tree(id);
    },
    async blobs(ids) {
      const out = new Map<ObjectId, Uint8Array>();
      const stored = ids.filter((id) => {
        const data = blobs.get(id);
        if (data) out.set(id, data);
        return !data;
      });
      for (const [id, data] of await store.objects.blobs(stored)) out.set(id, data);
      return out;
    },
  };
  return {
    objects,
    checkpoints: { seqs, root: (seq) => rootOf({ checkpoint: seq }), baseline: () => rootOf('baseline') },
  };
}
