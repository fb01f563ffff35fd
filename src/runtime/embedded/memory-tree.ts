// just-bash's InMemoryFs read directly for a search: it keeps every entry in one Map keyed by absolute path, and its
// readdir scans that whole Map for each folder, so a walk through its public API costs folders × entries. One pass
// over the Map indexes the children of every folder instead, and file contents are read without copies.
// The Map (a TypeScript-private field, a plain property at run time) is checked before use; when just-bash changes
// its shape, MemoryTree.over returns null and the caller walks through the public API.

import type { InMemoryFs } from 'just-bash';
import { normalizeAbsolute } from '../paths';
import type { EntryType } from '../types';
import type { Listing, SyncTreeSource } from '../search/tree-walk';

type StoredEntry =
  | { type: 'file'; content?: Uint8Array | string; lazy?: unknown }
  | { type: 'directory' }
  | { type: 'symlink'; target: string };

const MAX_LINK_HOPS = 40;

/**
 * A read-only view of an InMemoryFs: its folders' listings as they were when it was built (build a new one after the
 * file system changed), its files' contents as they are now.
 */
export class MemoryTree implements SyncTreeSource {
  private constructor(
    private readonly entries: Map<string, StoredEntry>,
    private readonly children: Map<string, Listing>,
  ) {}

  /**
   * A view of `fs`, with its lazily provided files read first; null when its internals are not the Map this module
   * knows.
   */
  static async over(fs: InMemoryFs): Promise<MemoryTree | null> {
    const entries = (fs as unknown as { data?: unknown }).data;
    if (!(entries instanceof Map)) return null;
    const children = new Map<string, Listing>();
    const lazy: string[] = [];
    for (const [path, entry] of entries as Map<unknown, unknown>) {
      if (typeof path !== 'string' || !isStoredEntry(entry)) return null;
      if (entry.type === 'file' && !('content' in entry)) lazy.push(path);
      if (path === '/') continue;
      const cut = path.lastIndexOf('/');
      const parent = cut === 0 ? '/' : path.slice(0, cut);
      let listing = children.get(parent);
      if (!listing) children.set(parent, (listing = []));
      listing.push({ name: path.slice(cut + 1), type: entryType(entry) });
    }
    for (const path of lazy) await fs.readFileBuffer(path); // materialises the file in place
    for (const listing of children.values()) listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return new MemoryTree(entries as Map<string, StoredEntry>, children);
  }

  /** The type of what `path` leads to after following symlinks, or null when nothing is there. */
  typeOf(path: string): EntryType | null {
    const resolved = this.resolve(path);
    const entry = resolved === null ? undefined : this.entries.get(resolved);
    return entry === undefined ? null : entryType(entry);
  }

  /** The folder's entries in name order (the view's own array: not to be changed). */
  list(folder: string): Listing | null {
    const resolved = this.resolve(folder);
    if (resolved === null || this.entries.get(resolved)?.type !== 'directory') return null;
    return this.children.get(resolved) ?? [];
  }

  readText(file: string): string | null {
    const bytes = this.readBytes(file);
    return bytes === null ? null : new TextDecoder().decode(bytes);
  }

  /** The bytes of the file at `path` (symlinks followed; the file system's own buffer, not to be changed). */
  readBytes(path: string): Uint8Array | null {
    let entry = this.entries.get(path); // a path without links on it is its own key: one lookup, the usual case
    if (entry === undefined || entry.type === 'symlink') {
      const resolved = this.resolve(path);
      entry = resolved === null ? undefined : this.entries.get(resolved);
    }
    if (entry?.type !== 'file') return null;
    const content = entry.content;
    if (content instanceof Uint8Array) return content;
    return typeof content === 'string' ? new TextEncoder().encode(content) : null;
  }

  /** `path` with every symlink along it followed, as the file system resolves it; null on a loop. */
  private resolve(path: string): string | null {
    const direct = this.entries.get(path);
    if (direct !== undefined && direct.type !== 'symlink') return path; // a stored path has no links above it
    let resolved = '';
    let hops = 0;
    for (const part of path.split('/')) {
      if (part === '') continue;
      let candidate = `${resolved}/${part}`;
      let entry = this.entries.get(candidate);
      while (entry?.type === 'symlink') {
        if (++hops > MAX_LINK_HOPS) return null;
        const parent = candidate.slice(0, candidate.lastIndexOf('/'));
        candidate = normalizeAbsolute(entry.target.startsWith('/') ? entry.target : `${parent}/${entry.target}`);
        entry = this.entries.get(candidate);
      }
      resolved = candidate === '/' ? '' : candidate;
    }
    return resolved === '' ? '/' : resolved;
  }
}

function entryType(entry: StoredEntry): EntryType {
  return entry.type === 'directory' ? 'dir' : entry.type === 'symlink' ? 'symlink' : 'file';
}

function isStoredEntry(value: unknown): value is StoredEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as { type?: unknown; content?: unknown; lazy?: unknown; target?: unknown };
  switch (entry.type) {
    case 'directory':
      return true;
    case 'symlink':
      return typeof entry.target === 'string';
    case 'file':
      return entry.content instanceof Uint8Array || typeof entry.content === 'string' || typeof entry.lazy === 'function';
    default:
      return false;
  }
}
