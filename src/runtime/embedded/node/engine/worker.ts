// Entry of the engine worker, the nested worker that runs `node` programs in QuickJS. A Web Worker in the browser
// (started by the embedded runtime's own worker) and a worker_threads worker in Node; both speak engine-protocol.
// Between jobs the worker prepares the next process (QuickJS runtime with the guest environment evaluated), so a
// job starts with the program, not with the environment.

import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-wasmfile-release-sync';
import type { EngineToHost, HostToEngine } from './protocol';
import { EngineRun, type EngineSetup, type RunOutcome } from './engine';
import { loadTypeStripper } from '../type-stripper';

type Port = { post(message: EngineToHost): void; listen(handler: (message: HostToEngine) => void): void };

let setup: EngineSetup | undefined;
let prepared: EngineRun | undefined;

function prepareNext(): void {
  if (setup && !prepared) prepared = new EngineRun(setup);
}

async function handle(message: HostToEngine, port: Port): Promise<void> {
  if (message.type === 'init') {
    try {
      const [module, stripTypes] = await Promise.all([
        newQuickJSWASMModuleFromVariant(newVariant(baseVariant, { wasmModule: message.wasm })),
        loadTypeStripper(),
      ]);
      setup = { module, guest: message.guest, maxStackBytes: message.maxStackBytes, stripTypes };
      prepareNext();
      port.post({ type: 'ready' });
    } catch (error) {
      port.post({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (!setup) throw new Error('The engine worker received a job before it was initialised.');
  prepareNext();
  const run = prepared!;
  prepared = undefined;
  let outcome: RunOutcome;
  try {
    outcome = run.execute({ id: message.id, job: message.job, reply: message.reply, control: message.control, send: port.post });
  } catch (error) {
    // The engine itself failed (e.g. the worker's native stack overflowed): report it, and have the worker replaced.
    port.post({ type: 'output', id: message.id, chunks: [[2, `node: the JavaScript engine failed: ${error instanceof Error ? error.message : String(error)}\n`]] });
    outcome = { exitCode: 1, broken: true };
  }
  port.post({
    type: 'done',
    id: message.id,
    exitCode: outcome.exitCode,
    heapBytes: setup.module.getWasmMemory().buffer.byteLength,
    broken: outcome.broken === true,
    tests: outcome.tests,
  });
  // Freeing QuickJS and preparing the next process happen after the host has its answer.
  if (outcome.broken || !run.dispose()) port.post({ type: 'retire' });
  else prepareNext();
}

function connect(): Port {
  const workerThreads = globalThis.process?.getBuiltinModule?.('node:worker_threads') as typeof import('node:worker_threads') | undefined;
  const parent = workerThreads?.parentPort;
  if (parent) {
    return { post: (message) => parent.postMessage(message), listen: (handler) => parent.on('message', handler) };
  }
  const scope = globalThis as unknown as {
    postMessage(message: EngineToHost): void;
    addEventListener(type: 'message', listener: (event: MessageEvent<HostToEngine>) => void): void;
  };
  return { post: (message) => scope.postMessage(message), listen: (handler) => scope.addEventListener('message', (event) => handler(event.data)) };
}

const port = connect();
let queue = Promise.resolve();
port.listen((message) => {
  queue = queue.then(() => handle(message, port));
});
