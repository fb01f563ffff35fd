// Runtime.scan written once over a small view of a file system, so the embedded runtime runs it in its worker (where
// the files are, in one round trip) and any other runtime gets it through its ordinary Runtime methods. Each file is
// read once and hashed at once, a batch at a time, so a scan of 48 MB never holds more than a batch of bytes unless
// the caller asked for them; the walk gives the event loop a turn at least every SLICE_MS.

import { nextMacrotask } from '../macrotask';
import { gitBlobId } from '../object-id';
import type { EntryType, Runtime, ScannedEntry, ScanOptions } from '../types';

/** What a scan needs to read: kinds (links resolved), folder listings and file bytes, by workdir-relative path. */
export interface ScanSource {
  /** 'file' or 'dir' (a link counts as what it points at); undefined when missing or a link to a folder. */
  kindOf(relative: string): Promise<'file' | 'dir' | undefined>;
  /** The names in a folder with their kinds, as kindOf would give them. */
  list(relative: string): Promise<{ name: string; kind: 'file' | 'dir' | undefined }[]>;
  read(relative: string): Promise<Uint8Array>;
}

/** An entry as read by copyEntries: a file with its bytes, a folder, or nothing there. */
export type CopiedEntry = { path: string; kind: 'file'; data: Uint8Array } | { path: string; kind: 'dir' } | { path: string; kind: 'missing' };

const HASH_BATCH = 64;
const SLICE_MS = 15;

type Visit = { file(path: string, data: Uint8Array): Promise<void> | void; other(entry: { path: string; kind: 'dir' | 'missing' }): void };

/**
 * Walks `paths` and everything below them, skipping folders named in `excluded`. With `slices`, the walk yields to
 * the event loop every SLICE_MS; without, it reads everything before anything else runs (for a small set).
 */
async function walk(source: ScanSource, paths: string[], excluded: ReadonlySet<string>, visit: Visit, slices: boolean): Promise<void> {
  let sliceStart = Date.now();
  const pause = async () => {
    if (!slices || Date.now() - sliceStart < SLICE_MS) return;
    await nextMacrotask();
    sliceStart = Date.now();
  };
  const below = async (folder: string): Promise<void> => {
    for (const entry of await source.list(folder)) {
      if (entry.kind === undefined || (entry.kind === 'dir' && excluded.has(entry.name))) continue;
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
      if (entry.kind === 'file') await visit.file(path, await source.read(path));
      else {
        visit.other({ path, kind: 'dir' });
        await below(path);
      }
    }
    await pause();
  };
  for (const path of paths) {
    if (path.split('/').some((segment) => excluded.has(segment))) continue;
    // The workdir is always a folder; going straight to its listing reads the files as early as possible.
    const kind = path === '' ? 'dir' : await source.kindOf(path);
    if (kind === undefined) visit.other({ path, kind: 'missing' });
    else if (kind === 'file') await visit.file(path, await source.read(path));
    else {
      visit.other({ path, kind: 'dir' });
      await below(path);
    }
  }
}

/** Scans `paths` of `source` (see Runtime.scan), in walk order. `copy` makes the bytes handed back the caller's own. */
export async function scanSource(source: ScanSource, paths: string[], options: ScanOptions = {}, copy = false): Promise<ScannedEntry[]> {
  const out: ScannedEntry[] = [];
  const waiting: { at: number; data: Uint8Array }[] = [];
  const known = new Set(options.knownIds ?? []);
  const hashWaiting = async () => {
    const batch = waiting.splice(0);
    const ids = await Promise.all(batch.map((file) => gitBlobId(file.data)));
    batch.forEach((file, i) => {
      const entry = out[file.at] as Extract<ScannedEntry, { kind: 'file' }>;
      entry.id = ids[i];
      if (options.withData && !known.has(ids[i])) entry.data = copy ? file.data.slice() : file.data;
    });
  };
  await walk(
    source,
    paths,
    new Set(options.excludeNames ?? []),
    {
      file: async (path, data) => {
        waiting.push({ at: out.length, data });
        out.push({ path, kind: 'file', size: data.length, id: '' });
        if (waiting.length >= HASH_BATCH) await hashWaiting();
      },
      other: (entry) => out.push(entry),
    },
    true,
  );
  await hashWaiting();
  return out;
}

/**
 * Copies of everything at and below `paths` (nothing excluded), read before anything else runs: a consistent copy
 * of what changed, for a rollback point.
 */
export async function copyEntries(source: ScanSource, paths: string[]): Promise<CopiedEntry[]> {
  const out: CopiedEntry[] = [];
  await walk(source, paths, new Set(), { file: (path, data) => void out.push({ path, kind: 'file', data: data.slice() }), other: (entry) => out.push(entry) }, false);
  return out;
}

/** A ScanSource over any Runtime's own methods (for runtimes without a scan of their own). */
export function runtimeScanSource(runtime: Pick<Runtime, 'workdir' | 'stat' | 'readdir' | 'readFile'>): ScanSource {
  const absolute = (relative: string) => (relative === '' ? runtime.workdir : `${runtime.workdir}/${relative}`);
  const kindOfType = async (relative: string, type: EntryType): Promise<'file' | 'dir' | undefined> => {
    if (type !== 'symlink') return type;
    // A link: a file it points at is read as that file; a folder it points at is skipped (it may loop).
    const target = await runtime.stat(absolute(relative));
    return target?.type === 'file' ? 'file' : undefined;
  };
  return {
    async kindOf(relative) {
      const info = await runtime.stat(absolute(relative));
      return info ? kindOfType(relative, info.type) : undefined;
    },
    async list(relative) {
      const entries = await runtime.readdir(absolute(relative));
      return Promise.all(
        entries.map(async (entry) => ({ name: entry.name, kind: await kindOfType(relative === '' ? entry.name : `${relative}/${entry.name}`, entry.type) })),
      );
    },
    read: (relative) => runtime.readFile(absolute(relative)),
  };
}
