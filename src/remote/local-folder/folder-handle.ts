// The part of the File System Access API a local folder is reached through, written out structurally. The WebWorker
// lib's FileSystemDirectoryHandle lacks the permission methods (they are not in the standard yet), its iterators are
// in a lib the core does not load, and its values() yields an undiscriminated FileSystemHandle; so the app declares
// `showDirectoryPicker` as returning a FolderHandle and hands the result down. An origin-private folder
// (`navigator.storage.getDirectory()`) has the same shape, and testing/memory-directory.ts implements it for Node.

export type PermissionState = 'granted' | 'denied' | 'prompt';
export type PermissionMode = { mode: 'readwrite' | 'read' };

/** What a file handle's getFile() gives: a snapshot whose bytes are read on demand. */
export interface FolderFileSnapshot {
  readonly size: number;
  readonly lastModified: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** Bytes written here replace the file only at close(); abort() or a failure leaves the old file whole. */
export interface FolderWritable {
  write(data: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(reason?: unknown): Promise<void>;
}

export interface FolderFileHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<FolderFileSnapshot>;
  createWritable(): Promise<FolderWritable>;
}

export interface FolderHandle {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<FolderFileHandle | FolderHandle>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<FolderFileHandle>;
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<FolderHandle>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
  // Absent on some browsers' origin-private folders, which are always accessible.
  queryPermission?(descriptor: PermissionMode): Promise<PermissionState>;
  requestPermission?(descriptor: PermissionMode): Promise<PermissionState>;
}

/** True when `error` is the API's "no such file or folder". */
export function isNotFound(error: unknown): boolean {
  return errorName(error) === 'NotFoundError';
}

/** The DOMException-style name of `error` ('NotFoundError', 'TypeMismatchError', ...), or ''. */
export function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && 'name' in error && typeof error.name === 'string' ? error.name : '';
}

/** The folder holding `path` ("a/b/c.ts" -> the handle of "a/b"), made on the way when `create`. */
export async function parentFolder(root: FolderHandle, path: string, create: boolean): Promise<FolderHandle> {
  let folder = root;
  const segments = path.split('/');
  for (const segment of segments.slice(0, -1)) folder = await folder.getDirectoryHandle(segment, { create });
  return folder;
}

/** The file handle at `path`, or null when there is no file there (a missing folder on the way included). */
export async function fileAt(root: FolderHandle, path: string): Promise<FolderFileHandle | null> {
  try {
    const folder = await parentFolder(root, path, false);
    return await folder.getFileHandle(baseName(path));
  } catch (error) {
    // A folder where a file was expected (or the reverse, on the way) also means "no file at this path".
    if (isNotFound(error) || errorName(error) === 'TypeMismatchError') return null;
    throw error;
  }
}

/** The last segment of a slash-separated path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
