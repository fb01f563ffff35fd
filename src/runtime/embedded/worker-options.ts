// How the page starts the embedded runtime's worker (client.ts): the runtime's own options, and what only the page
// has: the worker itself (tests pass an in-memory stand-in), the stop grace, and node's sandbox frame.

import type { EmbeddedRuntimeOptions } from './embedded-runtime';
import type { FromWorker, ToWorker } from './protocol';
import type { NodeSandboxOffer } from './node/sandbox/sandbox-offer';

/** The part of `Worker` the client uses (tests pass an in-memory stand-in). */
export interface WorkerLike {
  postMessage(message: ToWorker, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: { data: FromWorker }) => void): void;
  addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
  terminate(): void;
}

export type EmbeddedWorkerOptions = EmbeddedRuntimeOptions & {
  /** Default: Vite's module worker for worker.ts. */
  createWorker?: () => WorkerLike;
  /** How long a command may take to end after a stop request before the worker is replaced. */
  stopGraceMs?: number;
  /** The page's sandbox frame for node's browser engine; without it node runs on QuickJS. */
  nodeSandbox?: NodeSandboxOffer;
};
