// A stand-in for the embedded runtime's Web Worker in Node tests: the real worker host behind structured-clone
// message passing, optionally dropping some messages to play a worker stuck in a command.

import { createEmbeddedHost } from '../embedded/host';
import type { FromWorker, ToWorker } from '../embedded/protocol';
import type { WorkerLike } from '../embedded/client';

/** A WorkerLike running the worker host in this process; `ignore` drops matching requests (never answered). */
export function createInMemoryWorker(ignore: (message: ToWorker) => boolean = () => false): WorkerLike & { terminated: boolean } {
  const messageListeners: ((event: { data: FromWorker }) => void)[] = [];
  const worker = {
    terminated: false,
    postMessage(message: ToWorker, transfer: Transferable[] = []) {
      if (worker.terminated || ignore(message)) return;
      const copy = structuredClone(message, { transfer });
      setTimeout(() => void host(copy), 0);
    },
    addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
      if (type === 'message') messageListeners.push(listener as (event: { data: FromWorker }) => void);
    },
    terminate() {
      worker.terminated = true;
    },
  };
  const host = createEmbeddedHost((message) => {
    if (worker.terminated) return;
    const copy = structuredClone(message);
    setTimeout(() => {
      for (const listener of messageListeners) listener({ data: copy });
    }, 0);
  });
  return worker as WorkerLike & { terminated: boolean };
}
