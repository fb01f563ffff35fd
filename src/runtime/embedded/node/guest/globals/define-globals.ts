// Setting the guest's globals. A plain assignment fails on an engine whose global object already has some of them
// as getters (the browser engine's worker has `crypto`, `performance`, `navigator`...), and strict code throws on
// it; defining own properties shadows them there and is a plain set on QuickJS's bare global.

/** Defines each of `values` on `target` as a writable, configurable own property. */
export function defineGlobals(target: object, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) Object.defineProperty(target, name, { value, writable: true, configurable: true, enumerable: true });
}
