/**
 * A push-based async iterable with a final result: the producer `push`es events and `end`s with a result.
 * Meant for one iterating consumer; `result()` may be awaited by anyone and resolves once the stream ends.
 */
export class EventStream<E, R> implements AsyncIterable<E> {
  private readonly events: E[] = [];
  private readonly waiters: ((r: IteratorResult<E>) => void)[] = [];
  private ended = false;
  private readonly finalResult: Promise<R>;
  private resolveResult!: (r: R) => void;

  constructor() {
    this.finalResult = new Promise<R>((resolve) => (this.resolveResult = resolve));
  }

  push(event: E): void {
    if (this.ended) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.events.push(event);
  }

  end(result: R): void {
    if (this.ended) return;
    this.ended = true;
    this.resolveResult(result);
    for (const waiter of this.waiters.splice(0)) waiter({ value: undefined, done: true });
  }

  result(): Promise<R> {
    return this.finalResult;
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => {
        const event = this.events.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
    };
  }
}
