/**
 * A push-based async iterable with a final result: the producer `push`es events and `end`s with a result.
 * Meant for one iterating consumer; `result()` may be awaited by anyone and resolves once the stream ends.
 */
export class EventStream<E, R> implements AsyncIterable<E> {
  // A queue read from `head`: shift() moves every buffered event, and a loop can buffer hundreds between two reads.
  private readonly events: E[] = [];
  private head = 0;
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

  private take(): E {
    const event = this.events[this.head];
    this.events[this.head++] = undefined as E; // not kept alive by the queue once read
    if (this.head === this.events.length) {
      this.events.length = 0;
      this.head = 0;
    }
    return event;
  }

  result(): Promise<R> {
    return this.finalResult;
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => {
        if (this.head < this.events.length) return Promise.resolve({ value: this.take(), done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => this.waiters.push(resolve));
      },
    };
  }
}
