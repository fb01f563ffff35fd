// The live file system's entries (just-bash's InMemoryFs keeps one Map, path -> entry) made forkable: before an entry
// is replaced or deleted, every open fork point that has not kept that path yet keeps the entry it had (undefined:
// there was none). A fork point then reads the tree as it was when it was taken, with nothing copied when taken:
// only the entries the live tree changes afterwards are kept, once each.

/** An entry as the in-memory file system stores it; only ever replaced whole, never changed in place (see detachEntry). */
export type StoredEntry = object;

/** The live tree as it was when a fork was taken. */
export class ForkPoint {
  /** Paths the live tree changed since the fork was taken, with the entry each had then (undefined: none). */
  readonly kept = new Map<string, StoredEntry | undefined>();

  constructor(private readonly live: PreservingMap) {}

  get(path: string): StoredEntry | undefined {
    return this.kept.has(path) ? this.kept.get(path) : this.live.get(path);
  }

  /** Every path and entry of the tree as it was at the fork. */
  *entries(): IterableIterator<[string, StoredEntry]> {
    for (const [path, entry] of this.live.entries()) {
      if (!this.kept.has(path)) yield [path, entry];
    }
    for (const [path, entry] of this.kept) if (entry !== undefined) yield [path, entry];
  }

  /** Stops keeping entries for this fork. */
  close(): void {
    this.live.points.delete(this);
    this.kept.clear();
  }
}

export class PreservingMap extends Map<string, StoredEntry> {
  /** The fork points still open on this tree. */
  readonly points = new Set<ForkPoint>();

  /** A fork point of the tree as it is now; close it when the fork is dropped. */
  point(): ForkPoint {
    const point = new ForkPoint(this);
    this.points.add(point);
    return point;
  }

  override set(path: string, entry: StoredEntry): this {
    if (this.points.size > 0) this.keep(path);
    return super.set(path, entry);
  }

  override delete(path: string): boolean {
    if (this.points.size > 0) this.keep(path);
    return super.delete(path);
  }

  override clear(): void {
    if (this.points.size > 0) for (const path of super.keys()) this.keep(path);
    super.clear();
  }

  private keep(path: string): void {
    const entry = super.get(path);
    for (const point of this.points) if (!point.kept.has(path)) point.kept.set(path, entry);
  }
}
