// Stores written before content addressing keep each snapshot as a whole zip. When such a session is opened, each of
// its zips (latest, checkpoints, and the baseline it uses) becomes a tree: its files go into `blobs` once each,
// its folders (empty ones too) into `trees`, and the ref then points at the root, in one transaction per snapshot,
// and only if the ref still holds that zip. Nothing is lost: a zip that cannot be read stays as it was.
import { ZipImportError } from '../errors';
import { requestResult, type Database } from '../db';
import { putObjects } from './object-store';
import { baselineKey, latestKey, readStoredSnapshot, treeValue } from './snapshot-refs';
import { prefixRange } from '../keys';
import { snapshotOfFiles, type FilesSnapshot } from './trees/files';
import { readCentralDirectory } from '../zip/directory';
import { readRepoZip } from '../zip/repo-zip';
import { normalizePath, unsafePathReason } from '../zip/workspace-paths';
import type { SnapshotUpgrade } from './snapshot-types';
import { sameBytes } from './bytes';

export type { SnapshotUpgrade };

/** Converts the zip-era snapshots of session `sessionId` (and the baseline it uses) to trees. */
export async function upgradeSnapshots(db: Database, sessionId: string, baselineId: string | undefined): Promise<SnapshotUpgrade> {
  const zips = await db.transact(['snapshots'], 'readonly', 'the snapshots', async (s) => {
    const keys = [latestKey(sessionId), ...((await requestResult(s.snapshots.getAllKeys(prefixRange(`${sessionId}/checkpoint/`)))) as string[])];
    if (baselineId) keys.push(baselineKey(baselineId));
    const values = await Promise.all(keys.map((key) => requestResult(s.snapshots.get(key))));
    const found: { key: string; zip: Uint8Array }[] = [];
    keys.forEach((key, i) => {
      const stored = readStoredSnapshot(values[i]);
      if (stored && 'zip' in stored) found.push({ key, zip: stored.zip });
    });
    return found;
  });
  const result: SnapshotUpgrade = { converted: 0, unreadable: [] };
  for (const { key, zip } of zips) {
    let snapshot: FilesSnapshot;
    try {
      snapshot = await snapshotOfZip(zip);
    } catch (error) {
      if (!(error instanceof ZipImportError)) throw error;
      result.unreadable.push(key);
      continue;
    }
    const replaced = await db.transact(['snapshots', 'trees', 'blobs'], 'readwrite', 'the converted snapshot', async (s) => {
      const now = readStoredSnapshot(await requestResult(s.snapshots.get(key)));
      if (!now || !('zip' in now) || !sameBytes(now.zip, zip)) return false; // replaced meanwhile: nothing to convert
      await putObjects(s, snapshot.objects);
      s.snapshots.put(treeValue(snapshot.root), key);
      return true;
    });
    if (replaced) result.converted++;
  }
  return result;
}

/** The tree of a workspace zip: its files, and its folder entries (so empty folders survive). */
export async function snapshotOfZip(zip: Uint8Array): Promise<FilesSnapshot> {
  const folders = readCentralDirectory(zip)
    .filter((entry) => entry.isDirectory && unsafePathReason(entry.rawName) === null)
    .map((entry) => normalizePath(entry.rawName))
    .filter((path) => path !== '');
  const { files } = await readRepoZip(zip, { stripTopFolder: false });
  return snapshotOfFiles(files, folders);
}
