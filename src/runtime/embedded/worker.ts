// Web Worker entry for the embedded runtime (loaded by client.ts with Vite's `new Worker(new URL(...))`).

import { createEmbeddedHost } from './host';
import type { FromWorker, ToWorker } from './protocol';

type WorkerScope = {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
};

const scope = globalThis as unknown as WorkerScope;
const handle = createEmbeddedHost((message, transfer = []) => scope.postMessage(message, transfer));
scope.addEventListener('message', (event) => {
  void handle(event.data);
});
