// Serializes read-modify-write operations per file so concurrent edits, writes and a person's saves of one file
// never lose an update, while operations on different files still run in parallel. The Workspace owns the one queue
// of its sandbox; nothing else creates one for workspace files.
import { normalizePath } from '../paths';

export interface MutationQueue {
  /** Runs `fn` once every earlier `fn` under the same (normalized) key has settled; resolves with its result. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** A fresh, independent queue. */
export function createMutationQueue(): MutationQueue {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const normalized = normalizePath(key);
      const previous = tails.get(normalized) ?? Promise.resolve();
      // `async` turns a synchronous throw in fn into a rejection of this call only.
      const result = previous.then(async () => fn());
      const tail = result.then(
        () => undefined,
        () => undefined, // a failure belongs to its caller; later callers still run
      );
      tails.set(normalized, tail);
      void tail.then(() => {
        if (tails.get(normalized) === tail) tails.delete(normalized);
      });
      return result;
    },
  };
}
