// Turns a repo zip (or a picked folder) into workspace files, enforcing the safety limits before anything is
// inflated: an unsafe or oversized archive is rejected whole, so the current workspace is never half-replaced.
import { Inflate, inflateSync, zipSync, type Zippable } from 'fflate';
import { nextMacrotask } from '../../runtime/macrotask';
import { writeStoredZip } from '../../runtime/zip/stored-zip';
import { ImportCancelledError, ZipImportError } from '../errors';
import { entryData, readCentralDirectory, type ZipEntry } from './directory';
import { commonTopFolder, findFileFolderClash, isOsMetadata, normalizePath, unsafePathReason } from './workspace-paths';
import type { FileMap } from '../file-map';

export type ZipImportProgress = { files: number; bytes: number; totalFiles: number; totalBytes: number };

export interface ZipImportOptions {
  maxTotalBytes?: number; // default 1 GiB, uncompressed
  maxFiles?: number; // default 100_000
  maxRatio?: number; // default 200 (uncompressed / compressed, per entry, for entries over 1 MiB)
  stripTopFolder?: boolean; // default true: a GitHub/GitLab download's single top folder
  onProgress?: (progress: ZipImportProgress) => void;
  signal?: AbortSignal;
}

export type SkipReason = 'symlink' | 'os-metadata' | 'encrypted' | 'unsupported-compression';
export interface ZipImportResult {
  files: FileMap;
  skipped: { path: string; reason: SkipReason }[];
  strippedPrefix?: string; // e.g. "repo-main/"
  totalBytes: number;
  /** CRC-32 per file as the zip declared it (zip imports only), so re-packing the tree need not checksum again. */
  declaredCrcs?: Map<string, number>;
}

export const DEFAULT_MAX_TOTAL_BYTES = 1024 ** 3;
export const DEFAULT_MAX_FILES = 100_000;
export const DEFAULT_MAX_RATIO = 200;
// Small entries compress absurdly well legitimately (a file of blank lines); the ratio only matters for big ones.
const RATIO_CHECK_MIN_BYTES = 1024 ** 2;
const ARCHIVE_RATIO_MIN_BYTES = 64 * 1024 ** 2;
// Entries up to this compressed size inflate in one call; bigger ones stream, so a size lie is caught early.
const ONE_SHOT_MAX_COMPRESSED = 64 * 1024;
const YIELD_EVERY_MS = 30;

type Planned = { entry: ZipEntry; path: string };

export type RepoZipReadOptions = ZipImportOptions & {
  /**
   * Handed the files inflated so far, a batch at a time (each time the page gets a turn, and the rest at the end),
   * so a sandbox can stage them meanwhile. A later entry can still fail the import: whatever received batches must
   * be able to drop them. The same buffers end up in the result; neither side may change them.
   */
  onFiles?: (batch: { path: string; data: Uint8Array }[]) => void;
};

/** Validated, inflated files of a repo zip. Throws ZipImportError (or ImportCancelledError) and returns nothing partial. */
export async function readRepoZip(data: Uint8Array, options: RepoZipReadOptions = {}): Promise<ZipImportResult> {
  const { signal, onProgress, onFiles } = options;
  if (signal?.aborted) throw new ImportCancelledError();
  const { planned, skipped, totalBytes } = planEntries(readCentralDirectory(data), options);
  checkArchiveRatio(totalBytes, data.length, options.maxRatio ?? DEFAULT_MAX_RATIO);
  const strip = options.stripTopFolder === false ? null : commonTopFolder(planned.map((p) => p.path));

  const files: FileMap = new Map();
  const declaredCrcs = new Map<string, number>();
  let bytes = 0;
  let lastYield = Date.now();
  let batch: { path: string; data: Uint8Array }[] = [];
  const totalFiles = planned.length;
  onProgress?.({ files: 0, bytes: 0, totalFiles, totalBytes });
  for (const { entry, path } of planned) {
    const name = strip ? path.slice(strip.length) : path;
    const inflated = inflateEntry(data, entry, path);
    files.set(name, inflated);
    if (onFiles) batch.push({ path: name, data: inflated });
    declaredCrcs.set(name, entry.crc);
    bytes += entry.size;
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      if (batch.length > 0) onFiles?.(batch);
      batch = [];
      // Let the page paint the progress bar and notice a cancel.
      onProgress?.({ files: files.size, bytes, totalFiles, totalBytes });
      await nextMacrotask();
      if (signal?.aborted) throw new ImportCancelledError();
      lastYield = Date.now();
    }
  }
  if (batch.length > 0) onFiles?.(batch);
  onProgress?.({ files: files.size, bytes, totalFiles, totalBytes });
  return { files, skipped, totalBytes, declaredCrcs, ...(strip ? { strippedPrefix: strip } : {}) };
}

/**
 * Files picked with a folder input (paths as webkitRelativePath gives them), minus the picked folder's name; with
 * `keepTopFolder`, files whose paths are already the repository's own (a host import), taken as they are.
 */
export function readFolderFiles(
  entries: { path: string; data: Uint8Array }[],
  options: Pick<ZipImportOptions, 'maxFiles' | 'maxTotalBytes'> & { keepTopFolder?: boolean } = {},
): ZipImportResult {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const skipped: ZipImportResult['skipped'] = [];
  const kept: { path: string; data: Uint8Array }[] = [];
  let totalBytes = 0;
  for (const entry of entries) {
    const reason = unsafePathReason(entry.path);
    if (reason) throw new ZipImportError(`"${entry.path}" ${reason}; nothing was imported.`, entry.path);
    const path = normalizePath(entry.path);
    if (isOsMetadata(path)) {
      skipped.push({ path, reason: 'os-metadata' });
      continue;
    }
    kept.push({ path, data: entry.data });
    totalBytes += entry.data.length;
  }
  checkLimits(kept.length, totalBytes, maxFiles, maxTotalBytes, 'folder');
  const strip = options.keepTopFolder ? undefined : commonTopFolder(kept.map((k) => k.path));
  const files: FileMap = new Map(kept.map((k) => [strip ? k.path.slice(strip.length) : k.path, k.data]));
  return { files, skipped, totalBytes, ...(strip ? { strippedPrefix: strip } : {}) };
}

/** A zip of `files` in the format every runtime's importZip reads (deflated at `level`, default 1: fast; 0: stored). */
export function zipFromFiles(
  files: FileMap,
  options: { level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9; crcs?: Map<string, number> } = {},
): Uint8Array {
  const level = options.level ?? 1;
  if (level === 0) {
    const crcs = options.crcs;
    return writeStoredZip(Array.from(files, ([path, data]) => ({ path, data, crc: crcs?.get(path) })));
  }
  const input: Zippable = {};
  for (const [path, data] of files) input[path] = [data, { level }];
  return zipSync(input);
}

/** The files of a workspace zip (as made by zipFromFiles or Runtime.exportZip), with the same safety checks. */
export async function unzipToMap(zip: Uint8Array, options: Omit<ZipImportOptions, 'stripTopFolder'> = {}): Promise<FileMap> {
  return (await readRepoZip(zip, { ...options, stripTopFolder: false })).files;
}

function planEntries(entries: ZipEntry[], options: ZipImportOptions) {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const maxRatio = options.maxRatio ?? DEFAULT_MAX_RATIO;
  const planned: Planned[] = [];
  const skipped: { path: string; reason: SkipReason }[] = [];
  let totalBytes = 0;
  for (const entry of entries) {
    const reason = unsafePathReason(entry.rawName);
    if (reason) {
      throw new ZipImportError(
        `The zip entry "${entry.rawName}" ${reason}, which could write outside the project (a "zip slip"). ` +
          'Nothing was imported; re-create the zip from inside the project folder.',
        entry.rawName,
      );
    }
    const path = normalizePath(entry.rawName);
    if (entry.isDirectory || path === '') continue;
    const skip: SkipReason | null = isOsMetadata(path)
      ? 'os-metadata'
      : entry.isSymlink
        ? 'symlink'
        : entry.encrypted
          ? 'encrypted'
          : entry.method !== 0 && entry.method !== 8
            ? 'unsupported-compression'
            : null;
    if (skip) {
      skipped.push({ path, reason: skip });
      continue;
    }
    if (entry.size > RATIO_CHECK_MIN_BYTES && entry.size > entry.compressedSize * maxRatio) {
      throw new ZipImportError(
        `The zip entry "${path}" would expand ${Math.round(entry.size / Math.max(1, entry.compressedSize))} times ` +
          `(to ${formatBytes(entry.size)}), more than the ${maxRatio}x limit: it looks like a zip bomb. Nothing was imported.`,
        path,
      );
    }
    totalBytes += entry.size;
    planned.push({ entry, path });
  }
  checkLimits(planned.length, totalBytes, maxFiles, maxTotalBytes, 'zip');
  const clash = findFileFolderClash(planned.map((p) => p.path));
  if (clash) throw new ZipImportError(`The zip has "${clash}" both as a file and as a folder. Nothing was imported.`, clash);
  return { planned, skipped, totalBytes };
}

// Many small entries can each pass the per-entry check and still add up to a bomb.
function checkArchiveRatio(totalBytes: number, zipBytes: number, maxRatio: number) {
  if (totalBytes > ARCHIVE_RATIO_MIN_BYTES && totalBytes > zipBytes * maxRatio) {
    throw new ZipImportError(
      `This ${formatBytes(zipBytes)} zip would expand to ${formatBytes(totalBytes)}, more than ${maxRatio} times its ` +
        'size: it looks like a zip bomb. Nothing was imported.',
    );
  }
}

function checkLimits(files: number, bytes: number, maxFiles: number, maxBytes: number, what: 'zip' | 'folder') {
  if (files > maxFiles) {
    throw new ZipImportError(
      `The ${what} has ${files.toLocaleString('en')} files; the limit is ${maxFiles.toLocaleString('en')}. ` +
        `Nothing was imported; leave out generated folders (node_modules, build output) and try again.`,
    );
  }
  if (bytes > maxBytes) {
    throw new ZipImportError(
      `The ${what} unpacks to ${formatBytes(bytes)}; the limit is ${formatBytes(maxBytes)}. ` +
        'Nothing was imported; leave out large generated or binary files and try again.',
    );
  }
}

function inflateEntry(data: Uint8Array, entry: ZipEntry, path: string): Uint8Array {
  const compressed = entryData(data, entry);
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw sizeMismatch(path);
    return compressed.slice();
  }
  if (entry.compressedSize <= ONE_SHOT_MAX_COMPRESSED) {
    // One spare byte: if it gets written, the entry inflates to more than it declared.
    let out: Uint8Array;
    try {
      out = inflateSync(compressed, { out: new Uint8Array(entry.size + 1) });
    } catch {
      throw damaged(path);
    }
    if (out.length !== entry.size) throw sizeMismatch(path);
    return out.subarray(0, entry.size);
  }
  return inflateStreaming(compressed, entry.size, path);
}

// Feeds the inflater in chunks and stops at the first byte past the declared size, so a lying header can make
// us do at most one chunk's worth of extra work.
function inflateStreaming(compressed: Uint8Array, size: number, path: string): Uint8Array {
  const out = new Uint8Array(size);
  let written = 0;
  const inflater = new Inflate((chunk) => {
    if (written + chunk.length > size) throw sizeMismatch(path);
    out.set(chunk, written);
    written += chunk.length;
  });
  const step = ONE_SHOT_MAX_COMPRESSED;
  try {
    for (let at = 0; at < compressed.length; at += step) {
      const end = Math.min(at + step, compressed.length);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
  } catch (error) {
    if (error instanceof ZipImportError) throw error;
    throw damaged(path);
  }
  if (written !== size) throw sizeMismatch(path);
  return out;
}

const damaged = (path: string) =>
  new ZipImportError(`The zip entry "${path}" is damaged and cannot be unpacked. Nothing was imported.`, path);
const sizeMismatch = (path: string) =>
  new ZipImportError(
    `The zip entry "${path}" unpacks to a different size than the zip declares (damaged, or crafted to get past ` +
      'the size limits). Nothing was imported.',
    path,
  );

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}
