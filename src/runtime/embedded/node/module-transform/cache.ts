// Transformed modules kept for as long as the runtime lives: a package's files are transformed once, not on every
// `node` run. Keyed by a SHA-1 of the format, the file name's kind (TypeScript or not) and the source, so an edited
// file misses; bounded by the bytes of the code it holds, the least recently used entry going first.

import { sha1 } from '@noble/hashes/legacy.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { TransformedModule } from './messages';

export const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;

const encoder = new TextEncoder();

type Entry = { module: TransformedModule; bytes: number };

/** A byte-bounded LRU of transformed modules. */
export class TransformCache {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  constructor(private readonly maxBytes = DEFAULT_CACHE_BYTES) {}

  /**
   * The cache key of `source` transformed as `variant` (format and dialect). Worked out on every request, hits too,
   * so by the platform's native digest where there is one (typescript.js, 9 MB: 13 ms against 40 in JavaScript).
   */
  static async keyOf(variant: string, source: Uint8Array): Promise<string> {
    const head = encoder.encode(`${variant}\0`);
    const input = new Uint8Array(head.length + source.length);
    input.set(head);
    input.set(source, head.length);
    const subtle = globalThis.crypto?.subtle;
    return bytesToHex(subtle ? new Uint8Array(await subtle.digest('SHA-1', input)) : sha1(input));
  }

  get(key: string): TransformedModule | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.module;
  }

  /** Keeps `module`, evicting the least recently used entries past the bound (one larger than it is not kept). */
  set(key: string, module: TransformedModule): void {
    const bytes = ((module.code?.length ?? 0) + key.length) * 2; // a string holds two bytes per code unit
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.heldBytes -= old.bytes;
    }
    this.entries.set(key, { module, bytes });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }
}
