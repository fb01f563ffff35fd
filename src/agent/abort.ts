// Waiting on work that may ignore the abort signal (a provider, a hook awaiting a person, a tool) without letting
// it hold the run open after the person pressed Stop.

export const ABORTED: unique symbol = Symbol('aborted');
export type Aborted = typeof ABORTED;

type Contender = { resolve: (value: Aborted) => void; graceMs: number; timer?: ReturnType<typeof setTimeout> };

/**
 * One per run: a single listener on the run's signal serves every race (the loop races each provider event and
 * each hook and tool), which is much cheaper than adding and removing a signal listener per race.
 */
export class AbortRace {
  private readonly contenders = new Set<Contender>();
  private stopped: boolean;
  private readonly onAbort = (): void => {
    this.stopped = true;
    for (const contender of this.contenders) this.fire(contender);
  };

  constructor(readonly signal: AbortSignal | undefined) {
    this.stopped = signal?.aborted ?? false;
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /**
   * The signal's `aborted`, as a plain field: the loop asks several times per tool call, and the signal's getter
   * checks its receiver each time. Set by this race's listener, which the run registers before any tool's.
   */
  get aborted(): boolean {
    return this.stopped;
  }

  /**
   * Settles like `work`, or with ABORTED once the signal aborts (after `graceMs`, so work that does honour the
   * signal can still report what it got done). A rejection of `work` after that is absorbed, never unhandled.
   */
  race<T>(work: Promise<T>, graceMs = 0): Promise<T | Aborted> {
    if (!this.signal) return work;
    return new Promise<T | Aborted>((resolve, reject) => {
      const contender: Contender = { resolve, graceMs };
      if (this.stopped) this.fire(contender);
      else this.contenders.add(contender);
      work.then(
        (value) => {
          this.retire(contender);
          resolve(value);
        },
        (error: unknown) => {
          this.retire(contender);
          reject(error);
        },
      );
    });
  }

  /** Stops listening to the signal; call when the run ends. */
  dispose(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private fire(contender: Contender): void {
    if (contender.graceMs <= 0) contender.resolve(ABORTED);
    else contender.timer = setTimeout(contender.resolve, contender.graceMs, ABORTED);
  }

  private retire(contender: Contender): void {
    this.contenders.delete(contender);
    if (contender.timer !== undefined) clearTimeout(contender.timer);
  }
}
