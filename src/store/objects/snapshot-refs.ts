// Where a session's snapshots are, in the `snapshots` store:
//   <id>/latest, <id>/checkpoint/<seq padded to 8>, <baselineId>/baseline
// each holding either { tree: <root tree id> } (a content-addressed snapshot: its folders in `trees`, its files in
// `blobs`) or, in stores written before content addressing, the workspace as one zip (converted on open).
import { isObjectId, type ObjectId } from '../../runtime/object-id';
import { pad } from '../keys';
import type { SnapshotRef } from './snapshot-types';
import type { StoredSnapshot } from './snapshot-types';

export type { StoredSnapshot };

export const latestKey = (id: string): string => `${id}/latest`;
export const baselineKey = (baselineId: string): string => `${baselineId}/baseline`;
export const checkpointKey = (id: string, seq: number): string => `${id}/checkpoint/${pad(seq)}`;

/** The value a tree snapshot is stored as. */
export const treeValue = (root: ObjectId): { tree: ObjectId } => ({ tree: root });

/** A stored value read defensively: a tree ref, a zip, or nothing usable. */
export function readStoredSnapshot(value: unknown): StoredSnapshot | undefined {
  if (value instanceof Uint8Array) return { zip: value };
  if (typeof value === 'object' && value !== null && isObjectId((value as { tree?: unknown }).tree)) {
    return { tree: (value as { tree: ObjectId }).tree };
  }
  return undefined;
}

/** What a SnapshotRef is called in messages for the person. */
export function describeRef(ref: SnapshotRef): string {
  return ref === 'latest' ? 'the workspace snapshot' : ref === 'baseline' ? 'the imported baseline' : 'the checkpoint';
}
