// The sandbox frame's stand-in in Node, for the unit tests and the benches: the same relay (in this thread) and the
// same browser-engine entry (in worker_threads workers), joined by a real MessageChannel, so the host's side runs
// exactly as in the browser. V8 is Node's own here; what the frame adds in a browser (its origin, its CSP) is tested
// in Chromium (e2e/node-sandbox.spec.ts).

import guest from 'virtual:conch-node-guest';
import { startRelay, type RelayEngineWorker } from './relay';
import { SandboxEngine } from './sandbox-engine';

type NodeBuiltins = { getBuiltinModule(name: string): unknown };

/** A SandboxEngine whose frame is this thread and whose engine workers are worker_threads. */
export function createNodeSandboxEngine(): SandboxEngine {
  const nodeProcess = (globalThis as unknown as { process: NodeBuiltins }).process;
  const threads = nodeProcess.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
  const channel = new threads.MessageChannel();
  channel.port1.unref();
  channel.port2.unref();
  startRelay({ post: (message) => channel.port2.postMessage(message), onMessage: (listener) => channel.port2.on('message', listener) }, () => spawnEngine(nodeProcess, threads));
  return new SandboxEngine({ post: (message) => channel.port1.postMessage(message), onMessage: (listener) => channel.port1.on('message', listener) }, '', guest);
}

function spawnEngine(nodeProcess: NodeBuiltins, threads: typeof import('node:worker_threads')): RelayEngineWorker {
  const nodeModule = nodeProcess.getBuiltinModule('node:module') as typeof import('node:module');
  const nodeUrl = nodeProcess.getBuiltinModule('node:url') as typeof import('node:url');
  const entryName = 'native-engine-entry.ts'; // not a literal `new URL`: Vite must not bundle it as an asset
  const entry = nodeUrl.fileURLToPath(new URL(entryName, import.meta.url));
  const tsxRequireHook = nodeModule.createRequire(import.meta.url).resolve('tsx/cjs');
  const worker = new threads.Worker(`require(${JSON.stringify(entry)})`, { eval: true, execArgv: ['--require', tsxRequireHook] });
  worker.unref();
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => {
      worker.on('error', (error) => listener(error.message));
      worker.on('exit', (code) => listener(`the engine worker exited (code ${code})`));
    },
    terminate: () => void worker.terminate(),
  };
}
