// A copy-on-write fork of the embedded runtime's in-memory file system, taken in constant time: the live file
// system's Map becomes a PreservingMap (once; after that it costs nothing until a fork is open), and the fork is a
// fresh InMemoryFs whose Map is a LayeredMap over a fork point of it. No entry and no byte is copied when it is taken.
// just-bash changes two things of an entry in place, its mode (chmod) and time (utimes): those go through
// detachEntry first on either side, so the change lands on a copy of the entry and the other side keeps its own.

import { InMemoryFs } from 'just-bash';
import type { ForkChange } from '../../types';
import { normalizeAbsolute, relativeTo } from '../../paths';
import { LayeredMap } from './layered-map';
import { PreservingMap, type StoredEntry } from './preserving-map';

/** A fork of an in-memory file system. */
export interface MemoryFork {
  /** The fork's own file system. */
  readonly memory: InMemoryFs;
  /** The files below `workdir` differing between the fork point and the fork now (workdir-relative). */
  changes(): Promise<ForkChange[]>;
  /** Stops the live file system keeping entries for this fork; the fork is not to be used afterwards. */
  dispose(): void;
}

type WithEntries = { data?: unknown };

/** Makes `memory` forkable (its Map becomes a PreservingMap, entries kept as they are); true when it is. */
export function makeForkable(memory: InMemoryFs): boolean {
  const holder = memory as unknown as WithEntries;
  if (holder.data instanceof PreservingMap || holder.data instanceof LayeredMap) return true;
  if (!(holder.data instanceof Map)) return false;
  const preserving = new PreservingMap();
  for (const [path, entry] of holder.data as Map<string, StoredEntry>) preserving.set(path, entry);
  holder.data = preserving;
  return true;
}

/** A fork of `live` as it is now; throws when just-bash's file system is not the shape this module knows. */
export function forkMemory(live: InMemoryFs, workdir: string): MemoryFork {
  if (!makeForkable(live)) throw new Error('This sandbox cannot fork its files (its file system is not the kind Conch knows).');
  const entries = (live as unknown as WithEntries).data;
  if (!(entries instanceof PreservingMap)) throw new Error('A fork cannot be forked again; fork the live workspace instead.');
  const point = entries.point();
  const layered = new LayeredMap(point);
  const memory = new InMemoryFs();
  (memory as unknown as WithEntries).data = layered;
  return {
    memory,
    changes: () => changesOf(layered, workdir),
    dispose: () => point.close(),
  };
}

/**
 * Before just-bash changes the entry at `absolute` in place (chmod, utimes): puts a copy of it there (and at the path
 * links lead to), so whatever else holds the old entry, a fork or its point, keeps it as it was.
 */
export async function detachEntry(memory: InMemoryFs, absolute: string): Promise<void> {
  const entries = (memory as unknown as WithEntries).data;
  if (!(entries instanceof Map)) return;
  const paths = new Set([normalizeAbsolute(absolute)]);
  try {
    paths.add(await memory.realpath(absolute));
  } catch {
    // nothing there: just-bash reports that itself
  }
  for (const path of paths) {
    const entry = entries.get(path) as StoredEntry | undefined;
    if (entry !== undefined) entries.set(path, { ...entry });
  }
}

async function changesOf(layered: LayeredMap, workdir: string): Promise<ForkChange[]> {
  const changes: ForkChange[] = [];
  for (const absolute of new Set(layered.touched())) {
    const path = relativeTo(workdir, absolute);
    if (!path) continue; // outside the workdir, or the workdir itself
    const base = await bytesOf(layered.point.get(absolute));
    const fork = await bytesOf(layered.get(absolute));
    if (base === fork || (base !== null && fork !== null && sameBytes(base, fork))) continue;
    changes.push({ path, base, fork });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A file's bytes or a link's target text; null for a folder or nothing. */
async function bytesOf(entry: StoredEntry | undefined): Promise<Uint8Array | null> {
  const stored = entry as { type?: unknown; content?: unknown; lazy?: unknown; target?: unknown } | undefined;
  if (stored?.type === 'symlink' && typeof stored.target === 'string') return new TextEncoder().encode(stored.target);
  if (stored?.type !== 'file') return null;
  let content = stored.content;
  if (content === undefined && typeof stored.lazy === 'function') content = await (stored.lazy as () => unknown)();
  if (content instanceof Uint8Array) return content;
  return typeof content === 'string' ? new TextEncoder().encode(content) : null;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
