// A cap on requests in flight: work past the cap waits its turn in order, and an abort drops the waiting.
import { ImportCancelledError } from '../../store/errors';

export class InFlight {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number, private readonly signal?: AbortSignal) {}

  /** Runs `task` when fewer than `max` others run; rejects with ImportCancelledError if aborted while waiting. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next in line, so none can slip in between.
    if (this.running >= this.max) await this.turn();
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  private turn(): Promise<void> {
    const signal = this.signal;
    if (signal?.aborted) return Promise.reject(new ImportCancelledError());
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', stop);
        resolve();
      };
      const stop = () => {
        const at = this.waiting.indexOf(go);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(new ImportCancelledError());
      };
      signal?.addEventListener('abort', stop, { once: true });
      this.waiting.push(go);
    });
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
