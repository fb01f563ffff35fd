// Serializes read-modify-write operations per file so concurrent edits, writes and a person's saves of one file
// never lose an update, while operations on different files still run in parallel.

export interface MutationQueue {
  /** Runs `fn` once every earlier `fn` under the same (normalized) key has settled; resolves with its result. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** A fresh, independent queue. Most callers want `mutationQueueFor(runtime)` so everyone shares one. */
export function createMutationQueue(): MutationQueue {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const normalized = normalizeQueueKey(key);
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

const queuesByRuntime = new WeakMap<object, MutationQueue>();

/** The one queue shared by every writer (agent tools, the UI editor) of the given runtime's files. */
export function mutationQueueFor(runtime: object): MutationQueue {
  let queue = queuesByRuntime.get(runtime);
  if (!queue) {
    queue = createMutationQueue();
    queuesByRuntime.set(runtime, queue);
  }
  return queue;
}

/** Canonical form of a path key: `//` collapsed, `.` and `..` resolved, no trailing slash. */
export function normalizeQueueKey(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..'); // above the root of a relative path: keep it, it is a different file
      continue;
    }
    parts.push(part);
  }
  const joined = parts.join('/');
  if (absolute) return `/${joined}`;
  return joined === '' ? '.' : joined;
}
