// The browser engine as the pool sees it: an EngineSource whose workers live in the sandbox frame, reached through the
// one MessagePort the page handed this worker. Each worker's messages arrive checked (message-checks.ts); a frame
// that stops answering fails the start after START_TIMEOUT_MS instead of hanging `node`.

import type { EngineToHost, GuestSources } from '../engine/protocol';
import type { EngineSource, EngineWorkerPort } from '../engine/worker-start';
import { checkEngineMessage } from './message-checks';
import type { HostToRelay, RelayToHost } from './sandbox-protocol';

const START_TIMEOUT_MS = 10_000;

/** A MessagePort, or anything with its two methods. */
export type SandboxLine = { post(message: HostToRelay): void; onMessage(listener: (data: unknown) => void): void };

type Listeners = { message: ((message: EngineToHost) => void)[]; exit: ((reason: string) => void)[] };

/** The engine workers of one sandbox frame. */
export class SandboxEngine implements EngineSource {
  readonly name = 'browser' as const;
  private nextWorker = 1;
  private readonly workers = new Map<number, Listeners>();

  constructor(
    private readonly line: SandboxLine,
    engineSource: string,
    guest: GuestSources,
  ) {
    line.onMessage((data) => this.receive(data));
    line.post({ type: 'init', engine: engineSource, guest });
  }

  start(): Promise<EngineWorkerPort> {
    const worker = this.nextWorker++;
    const listeners: Listeners = { message: [], exit: [] };
    this.workers.set(worker, listeners);
    const post = (message: HostToRelay) => this.line.post(message);
    const port: EngineWorkerPort = {
      startRun: (id, job) => {
        post({ type: 'run', worker, id, job });
        return {
          reply: (answer) => {
            post({ type: 'fs-reply', worker, id, answer });
            return true; // the relay grows its own buffer when the answer does not fit
          },
          grown: () => {},
          signal: (signal) => post({ type: 'control', worker, id, signal }),
        };
      },
      onMessage: (listener) => listeners.message.push(listener),
      onExit: (listener) => listeners.exit.push(listener),
      terminate: () => {
        if (!this.workers.delete(worker)) return;
        post({ type: 'terminate', worker });
      },
      reusable: false,
    };
    return new Promise((resolve, reject) => {
      const fail = (reason: string) => {
        clearTimeout(timer);
        port.terminate();
        reject(new Error(`node: the browser engine could not start: ${reason}`));
      };
      const timer = setTimeout(() => fail(`the sandbox frame did not answer within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
      listeners.message.push((message) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(port);
        } else if (message.type === 'init-failed') fail(message.message);
      });
      listeners.exit.push((reason) => fail(reason));
      post({ type: 'start', worker });
    });
  }

  private receive(data: unknown): void {
    try {
      this.dispatch(data as RelayToHost);
    } catch {
      // a malformed message from the frame changes nothing
    }
  }

  private dispatch(message: RelayToHost): void {
    if (typeof message !== 'object' || message === null || !Number.isSafeInteger(message.worker)) return;
    const listeners = this.workers.get(message.worker);
    if (!listeners) return;
    if (message.type === 'exit') {
      this.workers.delete(message.worker);
      const reason = typeof message.reason === 'string' ? message.reason.slice(0, 2000) : 'the engine worker ended';
      for (const listener of listeners.exit) listener(reason);
      return;
    }
    if (message.type !== 'from-engine') return;
    const checked = checkEngineMessage(message.message);
    if (checked) for (const listener of listeners.message) listener(checked);
  }
}
