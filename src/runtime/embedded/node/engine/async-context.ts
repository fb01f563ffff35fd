// just-bash (in Node, where it has AsyncLocalStorage) lets file-system calls happen only inside a command's async
// context. A run's requests arrive as messages, in whatever context the message port was made in: a QuickJS worker
// is made inside a `node` command, the sandbox frame's port is not. Each run's answers are therefore run in the
// context the run started in. Browsers have no such context, and there this is the identity.

const asyncHooks = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process?.getBuiltinModule?.('node:async_hooks') as
  | typeof import('node:async_hooks')
  | undefined;

/** A function that runs callbacks in the async context current now. */
export function captureAsyncContext(): <T>(fn: () => T) => T {
  if (!asyncHooks) return (fn) => fn();
  const resource = new asyncHooks.AsyncResource('conch-node-run');
  return (fn) => resource.runInAsyncScope(fn);
}
