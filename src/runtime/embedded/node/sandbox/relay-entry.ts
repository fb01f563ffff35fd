// Entry of the relay worker inside the sandbox frame: the frame starts it from a blob: URL and passes it the
// MessagePort that reaches the embedded runtime's worker; from then on it serves that port (relay.ts), starting each
// engine worker from a blob: URL of the engine script the host sent (a URL of its own, by which the frame's heap
// probe names it), and passing on the probe's figures.

import { startRelay, type RelayControl, type RelayEngineWorker } from './relay';

type FrameMessage = { type?: string; port?: MessagePort; sizes?: unknown };
type Scope = { addEventListener(type: 'message', listener: (event: MessageEvent<FrameMessage>) => void): void };

const scope = globalThis as unknown as Scope;
const blobs = new Map<string, Blob>();

function spawn(source: string): RelayEngineWorker {
  let blob = blobs.get(source);
  if (!blob) blobs.set(source, (blob = new Blob([source], { type: 'text/javascript' })));
  const url = URL.createObjectURL(blob);
  const worker = new Worker(url, { name: 'conch-node-browser-engine' });
  return {
    url,
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onError: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'the engine worker failed')),
    terminate: () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  };
}

let relay: RelayControl | undefined;
scope.addEventListener('message', (event) => {
  const port = event.data?.port;
  if (event.data?.type === 'heap') return relay?.heapMeasured(event.data.sizes);
  if (relay || event.data?.type !== 'connect' || !(port instanceof MessagePort)) return;
  port.start();
  relay = startRelay({ post: (message) => port.postMessage(message), onMessage: (listener) => port.addEventListener('message', (message) => listener(message.data)) }, spawn);
});
