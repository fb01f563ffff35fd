// Entry of a browser-engine worker: a blob: worker the relay starts inside the sandbox frame (or, in Node's tests,
// a worker_threads worker). It evaluates the guest when told to (init), runs one job, and says when it is done.

import type { EngineToHost } from '../engine/protocol';
import type { RelayToEngine } from './sandbox-protocol';
import { NativeRun } from './native-engine';

type Port = { post(message: EngineToHost): void; listen(handler: (message: RelayToEngine) => void): void };

function connect(): Port {
  const workerThreads = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process?.getBuiltinModule?.('node:worker_threads') as
    | typeof import('node:worker_threads')
    | undefined;
  const parent = workerThreads?.parentPort;
  if (parent) return { post: (message) => parent.postMessage(message), listen: (handler) => parent.on('message', handler) };
  const scope = globalThis as unknown as {
    postMessage(message: EngineToHost): void;
    addEventListener(type: 'message', listener: (event: MessageEvent<RelayToEngine>) => void): void;
  };
  // Bound now: the program may replace the globals, and its messages must not pass for the engine's.
  const post = scope.postMessage.bind(scope);
  return { post: (message) => post(message), listen: (handler) => scope.addEventListener('message', (event) => handler(event.data)) };
}

const port = connect();
let process: NativeRun | undefined;
let ran = false;
port.listen((message) => {
  if (message.type === 'init') {
    try {
      process = new NativeRun(message.guest);
      port.post({ type: 'ready' });
    } catch (error) {
      port.post({ type: 'init-failed', message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (message.type !== 'run' || !process || ran) return;
  ran = true;
  const { id, job, reply, control } = message;
  void process.execute({ id, job, reply, control, send: port.post }).then(
    (outcome) => port.post({ type: 'done', id, exitCode: outcome.exitCode, heapBytes: 0, broken: false, tests: outcome.tests }),
    (error: unknown) => {
      port.post({ type: 'output', id, chunks: [[2, `node: the JavaScript engine failed: ${error instanceof Error ? error.message : String(error)}\n`]] });
      port.post({ type: 'done', id, exitCode: 1, heapBytes: 0, broken: true });
    },
  );
});
