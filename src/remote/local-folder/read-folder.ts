// Importing a local folder: list it under the zip import's rules (walk-folder.ts), then read every file with a few
// reads in flight, and record what each held (size, time, git blob id) as the baseline for write-back. All or
// nothing: a refusal or a cancel returns nothing partial, so the session stays as it was.
import { ImportCancelledError, ZipImportError } from '../../store/errors';
import type { FileMap } from '../../store/file-map';
import { InFlight } from '../github/in-flight';
import { readWhole } from './disk-check';
import type { FolderHandle } from './folder-handle';
import { folderSync, type FileStamp, type FolderSync } from './folder-sync';
import { FOLDER_CONCURRENCY, walkFolder, type FolderLimits, type FolderSkip, type ListedFile } from './walk-folder';

export type FolderImportProgress =
  | { phase: 'listing'; files: number; bytes: number }
  | { phase: 'reading'; files: number; bytes: number; totalFiles: number; totalBytes: number };

export type FolderImportOptions = {
  /** The zip import's defaults (100,000 files, 1 GiB) when not given. */
  limits?: FolderLimits;
  signal?: AbortSignal;
  onProgress?: (progress: FolderImportProgress) => void;
};

export type FolderImport = {
  files: FileMap;
  /** node_modules and .git folders (one entry each) and OS metadata files. */
  skipped: FolderSkip[];
  totalBytes: number;
  /** What every imported file held on disk: keep it with the session, beside the handle. */
  sync: FolderSync;
};

/** The files of the folder `root`; throws ZipImportError (or ImportCancelledError) and returns nothing partial. */
export async function readFolder(root: FolderHandle, options: FolderImportOptions = {}): Promise<FolderImport> {
  const { signal, onProgress } = options;
  const listing = await walkFolder(root, {
    limits: options.limits,
    signal,
    onListed: (files, bytes) => onProgress?.({ phase: 'listing', files, bytes }),
  });
  const totalFiles = listing.files.length;
  let files = 0;
  let bytes = 0;
  onProgress?.({ phase: 'reading', files, bytes, totalFiles, totalBytes: listing.totalBytes });
  const read = await readListed(listing.files, signal, (file) => {
    files++;
    bytes += file.data.length;
    onProgress?.({ phase: 'reading', files, bytes, totalFiles, totalBytes: listing.totalBytes });
  });
  const map: FileMap = new Map(read.map((file) => [file.stamp.path, file.data]));
  return { files: map, skipped: listing.skipped, totalBytes: bytes, sync: folderSync(root.name, read.map((file) => file.stamp)) };
}

export type ReadFile = { stamp: FileStamp; data: Uint8Array };

/** The bytes and stamps of `listed`, in its order, a few reads at a time. */
export async function readListed(
  listed: ListedFile[],
  signal: AbortSignal | undefined,
  onRead?: (file: ReadFile) => void,
): Promise<ReadFile[]> {
  const stop = new AbortController();
  const cancel = () => stop.abort();
  signal?.addEventListener('abort', cancel, { once: true });
  const inFlight = new InFlight(FOLDER_CONCURRENCY, stop.signal);
  try {
    return await Promise.all(
      listed.map((file) =>
        inFlight.run(async () => {
          if (stop.signal.aborted) throw new ImportCancelledError();
          const read = await readSnapshot(file);
          onRead?.(read);
          return read;
        }),
      ),
    );
  } catch (error) {
    stop.abort();
    throw signal?.aborted ? new ImportCancelledError() : error;
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

async function readSnapshot({ path, handle, snapshot }: ListedFile): Promise<ReadFile> {
  try {
    const { data, lastModified, blobId } = await readWhole(handle, snapshot);
    return { stamp: { path, size: data.length, lastModified, blobId }, data };
  } catch (error) {
    throw unreadable(path, error);
  }
}

function unreadable(path: string, error: unknown): ZipImportError {
  const why = error instanceof Error ? error.message : String(error);
  return new ZipImportError(
    `Could not read "${path}" from the folder (${why}). Nothing was imported; if another program is writing to it, ` +
      'wait until it is done and open the folder again.',
    path,
  );
}
