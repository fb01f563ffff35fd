// `worker_threads` inside the guest: a program always runs on the main thread, so tools that only ask where they are
// (ESLint, TypeScript's watch) load; starting a Worker throws the one clear "not available" message.

import { nodeError } from '../node-error';

/** Builds worker_threads for the main thread. */
export function createWorkerThreads(): Record<string, unknown> {
  class Worker {
    constructor() {
      throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', "`worker_threads` Worker is not available in Conch's embedded runtime; use the WebContainer runtime for it");
    }
  }
  const environment = new Map<unknown, unknown>();
  return {
    isMainThread: true,
    threadId: 0,
    parentPort: null,
    workerData: null,
    resourceLimits: {},
    SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
    Worker,
    MessageChannel: globalThis.MessageChannel,
    MessagePort: globalThis.MessagePort,
    BroadcastChannel: globalThis.BroadcastChannel,
    getEnvironmentData: (key: unknown) => environment.get(key),
    setEnvironmentData: (key: unknown, value: unknown) => void environment.set(key, value),
    markAsUntransferable: () => undefined,
    isMarkedAsUntransferable: () => false,
    moveMessagePortToContext: () => {
      throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', "`worker_threads` contexts are not available in Conch's embedded runtime");
    },
    receiveMessageOnPort: () => undefined,
  };
}
