// At most N subagents run at once; the others wait in call order. N is read whenever a place frees, so a settings
// change applies to the next task that starts.

export class TaskPool {
  private running = 0;
  private readonly waiting: { start(): void; signal?: AbortSignal; onAbort(): void }[] = [];

  constructor(private readonly limit: () => number) {}

  /**
   * Waits for a place (in call order) and resolves the function that gives it back; rejects if `signal` aborts
   * while waiting.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new Error('aborted'));
    return new Promise((resolve, reject) => {
      const waiter = {
        signal,
        start: () => {
          signal?.removeEventListener('abort', waiter.onAbort);
          this.running++;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            this.running--;
            this.startWaiting();
          });
        },
        onAbort: () => {
          const index = this.waiting.indexOf(waiter);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new Error('aborted'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
      this.startWaiting();
    });
  }

  private startWaiting(): void {
    while (this.running < Math.max(1, this.limit()) && this.waiting.length > 0) this.waiting.shift()!.start();
  }
}
