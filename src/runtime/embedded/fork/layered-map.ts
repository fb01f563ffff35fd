// A fork's entries: its own writes (and removals) over the live tree as it was at the fork point. It stands in for
// the Map inside the fork's own InMemoryFs, which only ever calls get, set, has, delete and iterates it.

import type { ForkPoint, StoredEntry } from './preserving-map';

export class LayeredMap extends Map<string, StoredEntry> {
  /** Paths the fork removed that the fork point holds. */
  private readonly removed = new Set<string>();

  constructor(readonly point: ForkPoint) {
    super();
  }

  /** The paths the fork wrote or removed: the only ones that can differ from the fork point. */
  touched(): string[] {
    return [...super.keys(), ...this.removed];
  }

  override get(path: string): StoredEntry | undefined {
    const own = super.get(path);
    if (own !== undefined) return own;
    return this.removed.has(path) ? undefined : this.point.get(path);
  }

  override has(path: string): boolean {
    return this.get(path) !== undefined;
  }

  override set(path: string, entry: StoredEntry): this {
    this.removed.delete(path);
    return super.set(path, entry);
  }

  override delete(path: string): boolean {
    const had = this.has(path);
    super.delete(path);
    if (this.point.get(path) !== undefined) this.removed.add(path);
    return had;
  }

  override clear(): void {
    for (const [path] of this.point.entries()) this.removed.add(path);
    super.clear();
  }

  override get size(): number {
    let count = 0;
    for (const _ of this.keys()) count++;
    return count;
  }

  override *entries(): MapIterator<[string, StoredEntry]> {
    yield* super.entries();
    for (const [path, entry] of this.point.entries()) {
      if (!super.has(path) && !this.removed.has(path)) yield [path, entry];
    }
  }

  override [Symbol.iterator](): MapIterator<[string, StoredEntry]> {
    return this.entries();
  }

  override *keys(): MapIterator<string> {
    for (const [path] of this.entries()) yield path;
  }

  override *values(): MapIterator<StoredEntry> {
    for (const [, entry] of this.entries()) yield entry;
  }

  override forEach(callback: (entry: StoredEntry, path: string, map: Map<string, StoredEntry>) => void, thisArg?: unknown): void {
    for (const [path, entry] of this.entries()) callback.call(thisArg, entry, path, this);
  }
}
