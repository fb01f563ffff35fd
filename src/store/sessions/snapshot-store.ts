// The session store's snapshots of a session's workspace: latest, checkpoints and baseline, each a root tree (or a
// zip-era zip) under its ref, with the session record's bookkeeping of checkpoints and baselines kept beside them.
import { requestResult } from '../db';
import { putObjects } from '../objects/object-store';
import { upgradeSnapshots } from '../objects/snapshot-migration';
import { baselineKey, checkpointKey, describeRef, latestKey, readStoredSnapshot, treeValue, type StoredSnapshot } from '../objects/snapshot-refs';
import { zipOfTree } from '../objects/trees/files';
import type { SessionStore, SnapshotRef } from '../types';
import { dropBaselineIfUnused, loadSession, readSession, type StoreContext } from './store-context';

export type SnapshotStore = Pick<
  SessionStore,
  'saveSnapshot' | 'loadSnapshot' | 'listCheckpoints' | 'commitSnapshot' | 'loadStoredSnapshot' | 'upgradeSnapshots' | 'dropCheckpoints'
>;

/** The snapshot methods of the session store over `context`. */
export function createSnapshotStore({ db, objects, notify, collectSoon }: StoreContext): SnapshotStore {
  async function snapshotKey(stores: { sessions: IDBObjectStore }, id: string, ref: SnapshotRef): Promise<string | undefined> {
    if (ref === 'latest') return latestKey(id);
    if (ref === 'baseline') {
      const session = await readSession(stores, id);
      return session.baselineId ? baselineKey(session.baselineId) : undefined;
    }
    return checkpointKey(id, ref.checkpoint);
  }

  async function loadStored(sessionId: string, ref: SnapshotRef): Promise<StoredSnapshot | undefined> {
    const value = await db.transact(['sessions', 'snapshots'], 'readonly', 'the snapshot', async (s) => {
      const key = await snapshotKey(s, sessionId, ref);
      return key === undefined ? undefined : requestResult(s.snapshots.get(key));
    });
    return readStoredSnapshot(value);
  }

  /** Points `ref` of a session at `value` (a zip or a tree ref), keeping the session record's bookkeeping. */
  async function putRef(s: { sessions: IDBObjectStore; snapshots: IDBObjectStore }, sessionId: string, ref: SnapshotRef, value: unknown): Promise<void> {
    const session = await readSession(s, sessionId);
    if (ref === 'latest') {
      s.snapshots.put(value, latestKey(sessionId));
      return;
    }
    if (ref === 'baseline') {
      // A fork shares its parent's baseline until it gets its own: copy on write.
      s.snapshots.put(value, baselineKey(sessionId));
      const previous = session.baselineId;
      s.sessions.put({ ...session, baselineId: sessionId }, sessionId);
      if (previous !== sessionId) {
        await dropBaselineIfUnused(s, previous);
        collectSoon();
      }
      return;
    }
    s.snapshots.put(value, checkpointKey(sessionId, ref.checkpoint));
    if (!session.checkpoints.includes(ref.checkpoint)) {
      const checkpoints = [...session.checkpoints, ref.checkpoint].sort((a, b) => a - b);
      s.sessions.put({ ...session, checkpoints }, sessionId);
    }
  }

  return {
    async saveSnapshot(sessionId, ref, zip) {
      await db.transact(['sessions', 'snapshots'], 'readwrite', describeRef(ref), (s) => putRef(s, sessionId, ref, zip));
    },

    async loadSnapshot(sessionId, ref) {
      const stored = await loadStored(sessionId, ref);
      if (!stored) return undefined;
      return 'zip' in stored ? stored.zip : zipOfTree(objects, stored.tree);
    },

    async commitSnapshot(sessionId, ref, snapshot) {
      const written = await db.transact(['sessions', 'snapshots', 'trees', 'blobs'], 'readwrite', describeRef(ref), async (s) => {
        const bytes = await putObjects(s, snapshot.objects, objects.packs);
        await putRef(s, sessionId, ref, treeValue(snapshot.root));
        return bytes;
      });
      objects.remember(snapshot.objects.trees.values());
      return written;
    },

    loadStoredSnapshot: loadStored,

    async upgradeSnapshots(sessionId) {
      const session = await loadSession(db, sessionId);
      if (!session) throw new Error(`Session ${sessionId} does not exist (it may have been deleted in another tab).`);
      return upgradeSnapshots(db, sessionId, session.baselineId);
    },

    async dropCheckpoints(sessionId, keep) {
      const dropped = await db.transact(['sessions', 'snapshots'], 'readwrite', 'the checkpoints', async (s) => {
        const session = await readSession(s, sessionId);
        const cut = Math.max(0, session.checkpoints.length - Math.max(0, keep));
        const gone = session.checkpoints.slice(0, cut);
        for (const seq of gone) s.snapshots.delete(checkpointKey(sessionId, seq));
        s.sessions.put({ ...session, checkpoints: session.checkpoints.slice(cut) }, sessionId);
        return gone;
      });
      if (dropped.length > 0) {
        notify({ type: 'updated', id: sessionId });
        collectSoon();
      }
      return dropped;
    },

    async listCheckpoints(sessionId) {
      const session = await loadSession(db, sessionId);
      return session ? [...session.checkpoints] : [];
    },
  };
}
