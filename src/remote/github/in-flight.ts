// A cap on requests in flight: work past the cap waits its turn in order, and an abort drops all the waiting.
import { ImportCancelledError } from '../../store/errors';

type Waiter = { go: () => void; stop: (error: Error) => void };

export class InFlight {
  private running = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly max: number, private readonly signal?: AbortSignal) {
    // One listener for the whole queue: thousands of waiting requests must not each hold one.
    signal?.addEventListener('abort', () => {
      for (const waiter of this.waiting.splice(0)) waiter.stop(new ImportCancelledError());
    }, { once: true });
  }

  /** Runs `task` when fewer than `max` others run; rejects with ImportCancelledError if aborted while waiting. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next in line, so none can slip in between.
    if (this.running >= this.max) await this.turn();
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next.go();
      else this.running--;
    }
  }

  private turn(): Promise<void> {
    if (this.signal?.aborted) return Promise.reject(new ImportCancelledError());
    return new Promise((go, stop) => this.waiting.push({ go, stop }));
  }
}

/** Waits `ms`, or rejects with ImportCancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(new ImportCancelledError());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new ImportCancelledError());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}
