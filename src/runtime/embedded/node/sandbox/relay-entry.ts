// Entry of the relay worker inside the sandbox frame: the frame starts it from a blob: URL and passes it the
// MessagePort that reaches the embedded runtime's worker; from then on it serves that port (relay.ts), starting each
// engine worker from a blob: URL of the engine script the host sent.

import { startRelay, type RelayEngineWorker } from './relay';

type Scope = { addEventListener(type: 'message', listener: (event: MessageEvent<{ type?: string; port?: MessagePort }>) => void): void };

const scope = globalThis as unknown as Scope;
const urls = new Map<string, string>();

function spawn(source: string): RelayEngineWorker {
  let url = urls.get(source);
  if (!url) urls.set(source, (url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }))));
  const worker = new Worker(url, { name: 'conch-node-browser-engine' });
  return {
    post: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event) => listener(event.data)),
    onError: (listener) => worker.addEventListener('error', (event) => listener(event.message || 'the engine worker failed')),
    terminate: () => worker.terminate(),
  };
}

let connected = false;
scope.addEventListener('message', (event) => {
  const port = event.data?.port;
  if (connected || event.data?.type !== 'connect' || !(port instanceof MessagePort)) return;
  connected = true;
  port.start();
  startRelay({ post: (message) => port.postMessage(message), onMessage: (listener) => port.addEventListener('message', (message) => listener(message.data)) }, spawn);
});
