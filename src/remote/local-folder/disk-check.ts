// Whether a file on disk still holds what the sync record says. Same size and modification time is taken as
// unchanged without reading the file (the check every sync tool makes: a folder of thousands of untouched files
// must not be re-read); when either differs, the bytes are read and their blob id decides, so a file only touched
// (saved again unchanged, checked out again) is not called changed.
import { gitBlobId, type ObjectId } from '../../runtime/object-id';
import { errorName, fileAt, type FolderFileHandle, type FolderFileSnapshot, type FolderHandle } from './folder-handle';
import type { FileStamp } from './folder-sync';

/** The disk's file as found: its bytes and blob id only when they had to be read. */
export type DiskFile = { size: number; lastModified: number; data: Uint8Array | null; blobId: ObjectId | null };

export type DiskCheck = {
  /** Null when there is no file at the path. */
  disk: DiskFile | null;
  /** True when the disk holds what `stamp` recorded (or, with no stamp, holds nothing there). */
  unchanged: boolean;
};

/** The file at `path` against its `stamp` (undefined: the record has no file there). */
export async function checkDisk(root: FolderHandle, path: string, stamp: FileStamp | undefined): Promise<DiskCheck> {
  const handle = await fileAt(root, path);
  if (!handle) return { disk: null, unchanged: stamp === undefined };
  const snapshot = await handle.getFile();
  if (stamp && snapshot.size === stamp.size && snapshot.lastModified === stamp.lastModified) {
    return { disk: { size: snapshot.size, lastModified: snapshot.lastModified, data: null, blobId: null }, unchanged: true };
  }
  const disk = await readWhole(handle, snapshot);
  return { disk, unchanged: stamp !== undefined && disk.blobId === stamp.blobId };
}

/** The bytes and blob id of a file; a snapshot gone stale while reading (NotReadableError) is taken again once. */
export async function readWhole(handle: FolderFileHandle, snapshot?: FolderFileSnapshot): Promise<DiskFile & { data: Uint8Array; blobId: ObjectId }> {
  let current = snapshot ?? (await handle.getFile());
  let buffer: ArrayBuffer;
  try {
    buffer = await current.arrayBuffer();
  } catch (error) {
    if (errorName(error) !== 'NotReadableError') throw error;
    current = await handle.getFile();
    buffer = await current.arrayBuffer();
  }
  const data = new Uint8Array(buffer);
  return { size: data.length, lastModified: current.lastModified, data, blobId: await gitBlobId(data) };
}

/** The size and time of the file at `path` now, or null when there is none: to notice a change since a check. */
export async function statDisk(root: FolderHandle, path: string): Promise<{ size: number; lastModified: number } | null> {
  const handle = await fileAt(root, path);
  if (!handle) return null;
  const { size, lastModified } = await handle.getFile();
  return { size, lastModified };
}
