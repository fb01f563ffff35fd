// What git's index needs to know of a file, read straight from just-bash's InMemoryFs without an await: its type,
// mode, size, mtime, and a token that changes whenever its contents are written. InMemoryFs stores each file as
// an entry object that every write replaces (chmod and utimes change it in place, and both show in mode and mtime),
// so the token is a number given to each entry object the first time it is seen. Forks share the unchanged entry
// objects with the live file system, so one MemoryStat serves a runtime and its in-process forks, and their files
// keep their tokens. When just-bash's internals are not the shape known here, `stat` answers undefined and the
// caller asks the file system itself.
import type { InMemoryFs } from 'just-bash';

/** A file's stat data as git's index keeps it (see the file comment). */
export type QuickStat = { kind: 'file' | 'symlink' | 'directory'; mode: number; size: number; mtimeMs: number; token: number };

type Entry = { type?: unknown; content?: unknown; mode?: unknown; mtime?: unknown; target?: unknown };
type EntryMap = { get(path: string): unknown };

export class MemoryStat {
  /** Which numbering the tokens are in: random, so tokens from another MemoryStat (a worker's) never match. */
  readonly numbering: number;
  private readonly tokens: { map: WeakMap<object, number>; next: number };
  private readonly encoder = new TextEncoder();

  /**
   * @param memory the file system now (a committed import replaces it)
   * @param sharing a MemoryStat whose tokens this one shares (the live runtime's, for a fork of its files)
   */
  constructor(
    private readonly memory: () => InMemoryFs,
    sharing?: MemoryStat,
  ) {
    this.numbering = sharing?.numbering ?? Math.floor(Math.random() * 0x7fffffff) + 1;
    this.tokens = sharing?.tokens ?? { map: new WeakMap(), next: 1 };
  }

  /** The stat data of the entry stored at `absolute` (a normalised path with no link on the way), or undefined. */
  stat(absolute: string): QuickStat | undefined {
    const entries = (this.memory() as unknown as { data?: unknown }).data;
    if (!entries || typeof (entries as EntryMap).get !== 'function') return undefined;
    const entry = (entries as EntryMap).get(absolute) as Entry | undefined;
    if (!entry || typeof entry !== 'object' || typeof entry.mode !== 'number' || !(entry.mtime instanceof Date)) return undefined;
    const kind = entry.type === 'file' ? 'file' : entry.type === 'symlink' ? 'symlink' : entry.type === 'directory' ? 'directory' : null;
    if (kind === null) return undefined;
    let size = 0;
    if (kind === 'file') {
      if (entry.content instanceof Uint8Array) size = entry.content.byteLength;
      else if (typeof entry.content === 'string') size = this.encoder.encode(entry.content).byteLength;
      else return undefined; // a lazily provided file: its size is known once it is read
    } else if (kind === 'symlink') size = typeof entry.target === 'string' ? entry.target.length : 0;
    return { kind, mode: entry.mode, size, mtimeMs: entry.mtime.getTime(), token: this.tokenOf(entry) };
  }

  /** The bytes stored at `absolute` when they are kept as bytes (not a string or a lazy file), else undefined. */
  contents(absolute: string): Uint8Array | undefined {
    const entries = (this.memory() as unknown as { data?: unknown }).data;
    if (!entries || typeof (entries as EntryMap).get !== 'function') return undefined;
    const entry = (entries as EntryMap).get(absolute) as Entry | undefined;
    return entry?.type === 'file' && entry.content instanceof Uint8Array ? entry.content : undefined;
  }

  /** Every path stored (normalised, absolute), straight from the file system's own Map; undefined when unknown. */
  paths(): Iterable<string> | undefined {
    const entries = (this.memory() as unknown as { data?: unknown }).data;
    return entries instanceof Map ? (entries.keys() as Iterable<string>) : undefined;
  }

  private tokenOf(entry: object): number {
    let token = this.tokens.map.get(entry);
    if (token === undefined) {
      token = this.tokens.next++;
      this.tokens.map.set(entry, token);
    }
    return token;
  }
}
