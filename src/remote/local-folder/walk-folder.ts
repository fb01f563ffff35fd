// Listing a local folder as the workspace would hold it: every file's path, handle and snapshot (size and time, no
// bytes yet), under the zip import's rules. node_modules and .git are left out whole, each named once; OS metadata
// is left out; a name the workspace cannot hold safely refuses the whole listing; so do more files or bytes than the
// limits, found as soon as they are passed rather than after listing everything.
import { ImportCancelledError, ZipImportError } from '../../store/errors';
import { DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES, formatBytes } from '../../store/zip/repo-zip';
import { isOsMetadata, unsafePathReason } from '../../store/zip/workspace-paths';
import { InFlight } from '../github/in-flight';
import type { FolderFileHandle, FolderFileSnapshot, FolderHandle } from './folder-handle';

export type FolderSkipReason = 'node_modules' | '.git' | 'os-metadata';
/** A file or folder left out; a skipped folder is one entry, whatever it holds. */
export type FolderSkip = { path: string; reason: FolderSkipReason };

export type ListedFile = { path: string; handle: FolderFileHandle; snapshot: FolderFileSnapshot };

export type FolderLimits = { maxFiles?: number; maxTotalBytes?: number };

export type WalkOptions = {
  limits?: FolderLimits;
  signal?: AbortSignal;
  onListed?: (files: number, bytes: number) => void;
};

export type FolderListing = { files: ListedFile[]; skipped: FolderSkip[]; totalBytes: number };

/** Folders and file handles touched at once: enough to hide the disk's latency, few enough not to flood it. */
export const FOLDER_CONCURRENCY = 8;

// A Map, not an object: a folder named "constructor" must not find Object's own keys.
const LEFT_OUT_FOLDERS = new Map<string, FolderSkipReason>([['node_modules', 'node_modules'], ['.git', '.git']]);

/** Every file under `root` the workspace would import, sorted by path; throws ZipImportError or ImportCancelledError. */
export async function walkFolder(root: FolderHandle, options: WalkOptions = {}): Promise<FolderListing> {
  const maxFiles = options.limits?.maxFiles ?? DEFAULT_MAX_FILES;
  const maxTotalBytes = options.limits?.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const outer = options.signal;
  if (outer?.aborted) throw new ImportCancelledError();
  // Our own signal, so a refusal part-way also stops the listings still waiting for their turn.
  const stop = new AbortController();
  const cancel = () => stop.abort();
  outer?.addEventListener('abort', cancel, { once: true });
  const inFlight = new InFlight(FOLDER_CONCURRENCY, stop.signal);
  const files: ListedFile[] = [];
  const skipped: FolderSkip[] = [];
  let totalBytes = 0;

  const checkStop = () => {
    if (stop.signal.aborted) throw new ImportCancelledError();
  };
  const visit = async (folder: FolderHandle, prefix: string): Promise<void> => {
    const children = await inFlight.run(async () => {
      checkStop();
      const list: (FolderFileHandle | FolderHandle)[] = [];
      for await (const child of folder.values()) list.push(child);
      return list;
    });
    await Promise.all(
      children.map(async (child) => {
        const path = prefix + child.name;
        const reason = unsafeNameReason(path, child.name);
        if (reason) {
          throw new ZipImportError(`"${path}" ${reason}. Nothing was imported; rename it on disk and open the folder again.`, path);
        }
        const leftOut = child.kind === 'directory' ? LEFT_OUT_FOLDERS.get(child.name) : undefined;
        if (leftOut || isOsMetadata(path)) {
          skipped.push({ path, reason: leftOut ?? 'os-metadata' });
          return;
        }
        if (child.kind === 'directory') return visit(child, `${path}/`);
        const snapshot = await inFlight.run(async () => {
          checkStop();
          return child.getFile();
        });
        checkStop();
        files.push({ path, handle: child, snapshot });
        totalBytes += snapshot.size;
        checkLimits(files.length, totalBytes, maxFiles, maxTotalBytes);
        options.onListed?.(files.length, totalBytes);
      }),
    );
  };

  try {
    await visit(root, '');
  } catch (error) {
    stop.abort();
    throw outer?.aborted ? new ImportCancelledError() : error;
  } finally {
    outer?.removeEventListener('abort', cancel);
  }
  files.sort((a, b) => compare(a.path, b.path));
  skipped.sort((a, b) => compare(a.path, b.path));
  return { files, skipped, totalBytes };
}

// The zip import's path rules, plus a backslash: legal in a Linux or macOS name, but the workspace would read it as
// a folder separator and write the file somewhere else.
function unsafeNameReason(path: string, name: string): string | null {
  return unsafePathReason(path) ?? (name.includes('\\') ? 'has a backslash in its name, which the workspace would read as a folder' : null);
}

function checkLimits(files: number, bytes: number, maxFiles: number, maxBytes: number): void {
  if (files > maxFiles) {
    throw new ZipImportError(
      `The folder has more than ${maxFiles.toLocaleString('en')} files, the limit. Nothing was imported; ` +
        'open a smaller folder, or move generated folders (build output, caches) out of it, and try again.',
    );
  }
  if (bytes > maxBytes) {
    throw new ZipImportError(
      `The folder holds more than ${formatBytes(maxBytes)}, the limit. Nothing was imported; ` +
        'move large generated or binary files out of it and try again.',
    );
  }
}

export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
