// Index against work tree, the way real git does it: an entry whose stat data matches its file is not read. The
// embedded file system has no inode numbers; instead each stored file body has a token that changes with every
// write (memory-stat.ts), so an entry keeps (size, mtime, token as `ino`, the tokens' numbering as `dev`). A
// same-size edit in the same millisecond still shows, by its new token. Files that do not match are read and hashed
// synchronously in one pass, and those whose contents turn out unchanged get fresh stat data, which the caller
// writes back (as real git's status refreshes its index).
import type { IndexEntry, IndexStat } from '../git-index';
import type { IndexedListingFs } from '../indexed-listing-fs';
import { objectHasher } from '../baseline/object-hasher';

/** A file's stat data; token 0 when the file system gives none (the file is then always read). */
export type FileStatData = { kind: 'file' | 'symlink' | 'directory'; mode: number; size: number; mtimeMs: number; token: number };

/** Where stat data comes from without an await (MemoryStat); undefined sends the scan to the file system's lstat. */
export type FileStats = {
  readonly numbering: number;
  stat(absolute: string): FileStatData | undefined;
  /** Every path of the file system, if it can list them faster than its getAllPaths. */
  paths?(): Iterable<string> | undefined;
  /** A file's stored bytes without an await, if the file system holds them as bytes; else undefined. */
  contents?(absolute: string): Uint8Array | undefined;
};

/** An index entry whose file differs: changed contents or mode (`data`, `blobId`, `mode` of the file), or gone. */
export type WorkTreeChange =
  | { kind: 'modified'; entry: IndexEntry; data: Uint8Array; blobId: string; mode: number; stat: IndexStat }
  | { kind: 'deleted'; entry: IndexEntry };

/** What a scan found: the changes in index order, and the entries with stat data refreshed where it was stale. */
export type WorkTreeScan = { changes: WorkTreeChange[]; entries: IndexEntry[]; refreshed: boolean };

export const SYMLINK_MODE = 0o120000;
export const EXECUTABLE_MODE = 0o100755;
export const PLAIN_MODE = 0o100644;
const GITLINK_MODE = 0o160000;

/** Compares `entries` with the files under `workTree` (see the file comment). */
export async function scanWorkTree(fs: IndexedListingFs, stats: FileStats, workTree: string, entries: readonly IndexEntry[]): Promise<WorkTreeScan> {
  const changes: WorkTreeChange[] = [];
  const updated: IndexEntry[] = [];
  let refreshed = false;
  const hasher = await objectHasher();
  for (const entry of entries) {
    if (entry.mode === GITLINK_MODE) {
      updated.push(entry);
      continue;
    }
    const path = `${workTree}/${entry.path}`;
    const info = stats.stat(path) ?? (await lstatData(fs, path));
    if (!info || info.kind === 'directory') {
      changes.push({ kind: 'deleted', entry });
      updated.push(entry);
      continue;
    }
    const mode = modeOf(info);
    const stat = indexStatOf(info, stats.numbering);
    if (mode === entry.mode && stat.ino !== 0 && sameStat(stat, entry.stat)) {
      updated.push(entry);
      continue;
    }
    const data = await readEntry(fs, path, info);
    const blobId = hasher.objectId('blob', data);
    if (blobId === entry.blobId && mode === entry.mode) {
      updated.push({ ...entry, stat });
      refreshed = true;
      continue;
    }
    changes.push({ kind: 'modified', entry, data, blobId, mode, stat });
    updated.push(entry);
  }
  return { changes, entries: updated, refreshed };
}

/** A file's bytes as git hashes them: a link's are its target. */
export async function readEntry(fs: IndexedListingFs, path: string, info: FileStatData): Promise<Uint8Array> {
  return info.kind === 'symlink' ? new TextEncoder().encode(await fs.readlink(path)) : fs.readFileBuffer(path);
}

/** The stat data of `path`, from `stats` or else the file system; null when nothing is there. */
export async function statData(fs: IndexedListingFs, stats: FileStats, path: string): Promise<FileStatData | null> {
  return stats.stat(path) ?? lstatData(fs, path);
}

/** The git mode of a file as found: a link, or a plain file executable by its owner or not. */
export function modeOf(info: FileStatData): number {
  if (info.kind === 'symlink') return SYMLINK_MODE;
  return info.mode & 0o100 ? EXECUTABLE_MODE : PLAIN_MODE;
}

/** The stat data an index entry keeps of `info` (see the file comment). */
export function indexStatOf(info: FileStatData, numbering: number): IndexStat {
  return {
    mtimeSeconds: Math.floor(info.mtimeMs / 1000),
    mtimeNanoseconds: (info.mtimeMs % 1000) * 1_000_000,
    dev: info.token === 0 ? 0 : numbering >>> 0,
    ino: info.token >>> 0,
    size: info.size >>> 0,
  };
}

function sameStat(a: IndexStat, b: IndexStat | undefined): boolean {
  return b !== undefined && a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeSeconds === b.mtimeSeconds && a.mtimeNanoseconds === b.mtimeNanoseconds;
}

async function lstatData(fs: IndexedListingFs, path: string): Promise<FileStatData | null> {
  try {
    const info = await fs.lstat(path);
    const kind = info.isSymbolicLink ? 'symlink' : info.isDirectory ? 'directory' : 'file';
    return { kind, mode: info.mode, size: info.size, mtimeMs: info.mtime.getTime(), token: 0 };
  } catch {
    return null;
  }
}
