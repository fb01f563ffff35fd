// Starting a QuickJS engine worker where the embedded runtime runs: a module Web Worker in the browser (bundled by
// Vite from the literal `new Worker(new URL(...))` below), a worker_threads worker in Node, where the TypeScript
// entry is loaded through tsx's ESM loader. Also the shape every engine's workers have for the pool.

import type { EngineJob, EngineToHost, HostToEngine } from './protocol';
import { startSharedRun, type RunChannel } from './run-channel';
import { loadEngineAssets } from './assets';

/** The part of an engine worker the pool uses, the same for every engine. */
export interface EngineWorkerPort {
  /** Starts run `id` of `job`; the channel carries its file-system replies and control signals. */
  startRun(id: number, job: EngineJob): RunChannel;
  onMessage(listener: (message: EngineToHost) => void): void;
  /** The worker failed or exited on its own. */
  onExit(listener: (reason: string) => void): void;
  terminate(): void;
  /** False when a worker runs one program only (the browser engine: the program's globals are the worker's). */
  readonly reusable: boolean;
}

/** An engine: starts workers ready to run (initialised). */
export interface EngineSource {
  readonly name: 'quickjs' | 'browser';
  start(): Promise<EngineWorkerPort>;
}

/** QuickJS in a worker of this thread, sharing memory with it. */
export const quickJsEngine: EngineSource = {
  name: 'quickjs',
  async start() {
    const assets = await loadEngineAssets();
    const worker = startEngineWorker();
    await new Promise<void>((resolve, reject) => {
      worker.onMessage((message) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'init-failed') reject(new Error(`node: the JavaScript engine could not start: ${message.message}`));
      });
      worker.onExit((reason) => reject(new Error(`node: the JavaScript engine could not start: ${reason}`)));
      worker.post({ type: 'init', wasm: assets.wasm, guest: assets.guest, maxStackBytes: maxStackBytes() });
    });
    return {
      startRun: (id, job) => startSharedRun(worker.post, id, job),
      onMessage: worker.onMessage,
      onExit: worker.onExit,
      terminate: worker.terminate,
      reusable: true,
    };
  },
};

/** A started worker as the functions above see it. */
type RawWorker = {
  post(message: HostToEngine): void;
  onMessage(listener: (message: EngineToHost) => void): void;
  onExit(listener: (reason: string) => void): void;
  terminate(): void;
};

type NodeBuiltins = { getBuiltinModule?: (name: string) => unknown };

/** Starts a new QuickJS engine worker (not yet initialised). */
function startEngineWorker(): RawWorker {
  const nodeProcess = (globalThis as { process?: NodeBuiltins & { versions?: { node?: string } } }).process;
  if (nodeProcess?.versions?.node && nodeProcess.getBuiltinModule) return startNodeWorker(nodeProcess);
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'conch-node-engine' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event: MessageEvent<EngineToHost>) => listener(event.data)),
    onExit: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'the engine worker failed to load')),
    terminate: () => worker.terminate(),
  };
}

/** QuickJS recurses on the worker's native stack: a larger stack lets programs recurse about as deep as in Node. */
const NODE_WORKER_STACK_MB = 8;

function startNodeWorker(nodeProcess: NodeBuiltins): RawWorker {
  const threads = nodeProcess.getBuiltinModule!('node:worker_threads') as typeof import('node:worker_threads');
  const nodeModule = nodeProcess.getBuiltinModule!('node:module') as typeof import('node:module');
  const nodeUrl = nodeProcess.getBuiltinModule!('node:url') as typeof import('node:url');
  // Node 20's workers do not take ESM loader hooks from --import, so the TypeScript entry is required through tsx's
  // CommonJS hook. Not a literal `new URL`: Vite must not bundle this branch's entry as an asset.
  const entryName = 'worker.ts';
  const entry = nodeUrl.fileURLToPath(new URL(entryName, import.meta.url));
  const tsxRequireHook = nodeModule.createRequire(import.meta.url).resolve('tsx/cjs');
  const worker = new threads.Worker(`require(${JSON.stringify(entry)})`, {
    eval: true,
    execArgv: ['--require', tsxRequireHook],
    resourceLimits: { stackSizeMb: NODE_WORKER_STACK_MB },
  });
  worker.unref(); // an idle engine must not keep a test run or a CLI alive
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onExit: (listener) => {
      worker.on('error', (error) => listener(error.message));
      worker.on('exit', (code) => listener(`the engine worker exited (code ${code})`));
    },
    terminate: () => void worker.terminate(),
  };
}

/** Bytes of QuickJS stack per engine: within what the worker's native stack holds (see NODE_WORKER_STACK_MB). */
export function maxStackBytes(): number {
  const nodeProcess = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return nodeProcess?.versions?.node ? 2 * 1024 * 1024 : 384 * 1024;
}
