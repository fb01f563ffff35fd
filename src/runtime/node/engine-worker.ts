// Entry of the engine worker, the nested worker that runs `node` programs in QuickJS. A Web Worker in the browser
// (started by the embedded runtime's own worker) and a worker_threads worker in Node; both speak engine-protocol.

import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import baseVariant from '@jitl/quickjs-wasmfile-release-sync';
import type { EngineToHost, GuestSources, HostToEngine } from './engine-protocol';
import { runJob, type TypeStripper } from './engine';
import { loadTypeStripper } from './type-stripper';

type Port = { post(message: EngineToHost): void; listen(handler: (message: HostToEngine) => void): void };

let engine: { module: QuickJSWASMModule; guest: GuestSources; maxStackBytes: number; stripTypes: TypeStripper } | undefined;

async function handle(message: HostToEngine, port: Port): Promise<void> {
  if (message.type === 'init') {
    try {
      const [module, stripTypes] = await Promise.all([
        newQuickJSWASMModuleFromVariant(newVariant(baseVariant, { wasmModule: message.wasm })),
        loadTypeStripper(),
      ]);
      engine = { module, guest: message.guest, maxStackBytes: message.maxStackBytes, stripTypes };
      port.post({ type: 'ready' });
    } catch (error) {
      port.post({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (!engine) throw new Error('The engine worker received a job before it was initialised.');
  let outcome: ReturnType<typeof runJob>;
  try {
    outcome = runJob({ ...engine, id: message.id, job: message.job, reply: message.reply, control: message.control, send: port.post });
  } catch (error) {
    // The engine itself failed (e.g. the worker's native stack overflowed): report it, and have the worker replaced.
    port.post({ type: 'output', id: message.id, chunks: [[2, `node: the JavaScript engine failed: ${error instanceof Error ? error.message : String(error)}\n`]] });
    outcome = { exitCode: 1, broken: true };
  }
  port.post({
    type: 'done',
    id: message.id,
    exitCode: outcome.exitCode,
    heapBytes: engine.module.getWasmMemory().buffer.byteLength,
    broken: outcome.broken === true,
    tests: outcome.tests,
  });
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
