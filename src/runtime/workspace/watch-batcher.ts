// Collects changed paths and hands them to listeners in batches, so a command touching 500 files is one event.

export const WATCH_BATCH_MS = 50;

export type WatchListener = (paths: string[]) => void;

/** A set of listeners fed with deduplicated, sorted path batches at most every `delayMs`. */
export class WatchBatcher {
  private readonly listeners = new Set<WatchListener>();
  private pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private holds = 0;

  constructor(private readonly delayMs = WATCH_BATCH_MS) {}

  /** Registers `listener`; the returned function unregisters it. */
  subscribe(listener: WatchListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  /** Records changed paths; they are delivered on the next flush. */
  add(paths: Iterable<string>): void {
    if (this.listeners.size === 0) return;
    for (const path of paths) this.pending.add(path);
    this.schedule();
  }

  /**
   * Runs `work` with delivery held: changes are only collected, no timer is started. just-bash forbids timers while
   * a script runs (its defense-in-depth mode), and a command's changes are best delivered together anyway: they are
   * delivered as soon as `work` ends, before its result, so whoever hears of the result already knows what changed.
   */
  async holdDuring<T>(work: () => Promise<T>): Promise<T> {
    this.holds += 1;
    try {
      return await work();
    } finally {
      this.holds -= 1;
      if (this.holds === 0) this.flush();
    }
  }

  private schedule(): void {
    if (this.holds > 0 || this.pending.size === 0 || this.timer !== undefined) return;
    this.timer = setTimeout(() => this.flush(), this.delayMs);
  }

  /** Delivers what is pending now (also used before dispose). */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = [...this.pending].sort();
    this.pending = new Set();
    for (const listener of [...this.listeners]) {
      try {
        listener(batch);
      } catch {
        // One failing listener must not starve the others or break the runtime.
      }
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.listeners.clear();
  }
}
