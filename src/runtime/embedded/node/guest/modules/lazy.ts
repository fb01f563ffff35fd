// Node's core modules come from npm packages bundled into the guest. They are required on first use, not at start,
// so `node -e 1` does not pay for evaluating util, assert or stream.

/** Defines `name` on `target` as a getter that computes the value once, then keeps it (replaceable, like Node's globals). */
export function defineLazy<T>(target: object, name: string, compute: () => T): void {
  Object.defineProperty(target, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = compute();
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
      return value;
    },
    set(value: unknown) {
      Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: false });
    },
  });
}

/** A function computing its value once. */
export function once<T>(compute: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = compute();
      done = true;
    }
    return value;
  };
}
