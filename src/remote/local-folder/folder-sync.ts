// What each file of a local folder held at the last sync (the import, a write-back or a refresh): the baseline a
// write-back checks the disk against. Plain data, so the app keeps it with the session in IndexedDB (the handle,
// structured-cloneable, is kept beside it); an array rather than an object keyed by path, so no file name (such as
// "__proto__") can collide with an object's own keys.
import { isObjectId, type ObjectId } from '../../runtime/object-id';

/** One file as the disk held it: size and modification time (a cheap check), and its git blob id (the sure one). */
export type FileStamp = { path: string; size: number; lastModified: number; blobId: ObjectId };

export type FolderSync = {
  version: 1;
  /** The picked folder's name, for the UI ("Write back to my-app"). */
  folderName: string;
  /** Sorted by path. */
  files: FileStamp[];
};

/** A record of `stamps` for the folder `folderName`. */
export function folderSync(folderName: string, stamps: Iterable<FileStamp>): FolderSync {
  const files = [...stamps].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { version: 1, folderName, files };
}

/** The stamps of `sync` by path. */
export function stampsByPath(sync: FolderSync): Map<string, FileStamp> {
  return new Map(sync.files.map((stamp) => [stamp.path, stamp]));
}

/** `sync` as it was stored, checked where it enters; throws naming what is wrong so the app can drop the link. */
export function parseFolderSync(value: unknown): FolderSync {
  if (!isRecord(value) || value.version !== 1 || typeof value.folderName !== 'string' || !Array.isArray(value.files)) {
    throw new Error('The saved folder link is not a folder sync record (version 1); open the folder again.');
  }
  const files = value.files.map((entry: unknown, index): FileStamp => {
    if (
      !isRecord(entry) ||
      typeof entry.path !== 'string' ||
      !isCount(entry.size) ||
      typeof entry.lastModified !== 'number' ||
      !isObjectId(entry.blobId)
    ) {
      throw new Error(`The saved folder link's file ${index + 1} is damaged; open the folder again.`);
    }
    return { path: entry.path, size: entry.size, lastModified: entry.lastModified, blobId: entry.blobId };
  });
  return folderSync(value.folderName, files);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
