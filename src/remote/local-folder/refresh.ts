// "Refresh from disk": what other programs changed in the folder since the last sync, to bring into the workspace
// and to tell the model about. Files with the size and time the record holds are taken as unchanged without being
// read; the rest are read, and one only touched (same bytes) just gets its new time in the record.
import type { ObjectId } from '../../runtime/object-id';
import type { FolderHandle } from './folder-handle';
import { folderSync, stampsByPath, type FileStamp, type FolderSync } from './folder-sync';
import { readListed } from './read-folder';
import { compare, walkFolder, type FolderLimits, type FolderSkip, type ListedFile } from './walk-folder';

/** One file changed outside Conch; `before` is the blob id the record held (null: the file is new). */
export type OutsideEdit =
  | { path: string; status: 'added' | 'modified'; data: Uint8Array; before: ObjectId | null }
  | { path: string; status: 'deleted'; before: ObjectId };

export type FolderRefresh = {
  /** Sorted by path. */
  edits: OutsideEdit[];
  skipped: FolderSkip[];
  /** The record as the disk is now: keep it in place of the old one once the edits are in the workspace. */
  sync: FolderSync;
};

/** The folder's changes since `sync`; throws ZipImportError (a name or limit refused) or ImportCancelledError. */
export async function refreshFromDisk(
  root: FolderHandle,
  sync: FolderSync,
  options: { limits?: FolderLimits; signal?: AbortSignal } = {},
): Promise<FolderRefresh> {
  const old = stampsByPath(sync);
  const listing = await walkFolder(root, options);
  const stamps = new Map<string, FileStamp>();
  const toRead: ListedFile[] = [];
  for (const file of listing.files) {
    const stamp = old.get(file.path);
    if (stamp && stamp.size === file.snapshot.size && stamp.lastModified === file.snapshot.lastModified) stamps.set(file.path, stamp);
    else toRead.push(file);
  }
  const edits: OutsideEdit[] = [];
  for (const { stamp, data } of await readListed(toRead, options.signal)) {
    stamps.set(stamp.path, stamp);
    const before = old.get(stamp.path)?.blobId ?? null;
    if (before !== stamp.blobId) edits.push({ path: stamp.path, status: before ? 'modified' : 'added', data, before });
  }
  for (const [path, stamp] of old) {
    if (!stamps.has(path)) edits.push({ path, status: 'deleted', before: stamp.blobId });
  }
  edits.sort((a, b) => compare(a.path, b.path));
  return { edits, skipped: listing.skipped, sync: folderSync(sync.folderName, stamps.values()) };
}

const SUMMARY_PATHS = 5;

/** One line for the model's next prompt naming the files changed on disk, or null when none did. */
export function outsideEditsSummary(edits: readonly Pick<OutsideEdit, 'path' | 'status'>[], shown = SUMMARY_PATHS): string | null {
  if (edits.length === 0) return null;
  const named = edits.slice(0, shown).map((edit) => (edit.status === 'modified' ? edit.path : `${edit.path} (${edit.status})`));
  const more = edits.length > shown ? ` (and ${edits.length - shown} more)` : '';
  return `Changed on disk since the last sync: ${named.join(', ')}${more}`;
}
