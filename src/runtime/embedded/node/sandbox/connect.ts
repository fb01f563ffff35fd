// The runtime worker's side of a sandbox frame the page handed over: the port becomes the browser engine, with the
// engine script and the guest environment sent to the frame's relay once. Loaded only when a frame arrives.

import engineSource from 'virtual:conch-node-sandbox-engine';
import guest from 'virtual:conch-node-guest';
import { SandboxEngine } from './sandbox-engine';

/** The browser engine whose workers the relay at the other end of `port` starts. */
export function connectSandboxEngine(port: MessagePort): SandboxEngine {
  port.start();
  return new SandboxEngine({ post: (message) => port.postMessage(message), onMessage: (listener) => port.addEventListener('message', (event) => listener(event.data)) }, engineSource, guest);
}
