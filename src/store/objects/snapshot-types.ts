// The shapes of stored snapshots and of the storage figures, apart from the code that reads and writes them, so
// types.ts can name them without importing that code.
import type { ObjectId } from '../../runtime/object-id';
import type { Tree } from './trees/codec';

/**
 * Which workspace snapshot: the latest one, the imported baseline, or the checkpoint taken when the user message
 * with that seq was sent (the workspace as it was BEFORE that turn ran).
 */
export type SnapshotRef = 'latest' | 'baseline' | { checkpoint: number };

/** What the storage figures read of a session: where its snapshots are. */
export type SnapshotHolder = { id: string; title: string; checkpoints: number[]; baselineId?: string };

export type GarbageReport = { trees: number; blobs: number };

export type CollectOptions = {
  /** Test hook: runs between the mark and the sweep. */
  afterMark?: () => Promise<void>;
};

/** Checkpoints as trees: root tree ids by user-message seq, every tree they reach, and every file's bytes. */
export type SessionSnapshots = {
  checkpoints: Map<number, ObjectId>;
  trees: Map<ObjectId, Tree>;
  blobs: Map<ObjectId, Uint8Array>;
};

/** What an upgrade did: how many zips became trees, and the keys of those that could not be read (kept as they are). */
export type SnapshotUpgrade = { converted: number; unreadable: string[] };

/** A stored snapshot: the root tree of a content-addressed one, or a whole zip (zip-era). */
export type StoredSnapshot = { tree: ObjectId } | { zip: Uint8Array };

/** What one session holds in storage (Settings → Storage). */
export type SessionUsage = {
  id: string;
  title: string;
  checkpoints: number;
  /** Bytes of everything its snapshots reach (files, folder manifests, zip-era snapshots). */
  totalBytes: number;
  /** Of those, the bytes no other session reaches. */
  uniqueBytes: number;
};
