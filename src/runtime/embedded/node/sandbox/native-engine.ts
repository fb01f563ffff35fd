// The browser engine: one `node` process in a worker of the sandbox frame, running the same guest environment as
// QuickJS does, but compiled by the browser's own JavaScript engine (indirect eval, with `//# sourceURL` naming the
// file). The host functions the guest is built on are plain functions here; fs and the module transform block on
// the relay's shared reply buffer. The event loop is the browser's: promise jobs run between the loop's turns, timers
// are the guest's own, slept on the control buffer. A worker runs one process: its globals are the program's.

import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { CONTROL_EVENTS, CONTROL_STOP, CONTROL_WAKE, type EngineJob, type EngineToHost, type GuestSources, type TestCounts } from '../engine/protocol';
import { SyncFsChannel } from '../engine/sync-fs-channel';
import type { RunOutcome } from '../engine/engine';
import type { EngineHost, GuestHooks } from '../guest/host-api';
import { STRIP_TYPES_OP } from './host-ops';
import { OutputBatch } from '../engine/output-batch';

/** How often the loop looks again while only the browser's own work (a wasm compile) is pending. */
const NATIVE_POLL_MS = 4;
const HASHES: Record<string, (data: Uint8Array) => Uint8Array> = { md5, sha1, sha256, sha512 };

// Taken before the guest replaces the globals with its own, which are built on the host functions below (its
// timers are driven by this loop; its performance, crypto and URL call back into the host).
const NativeMessageChannel = globalThis.MessageChannel;
const nativeSetTimeout = globalThis.setTimeout.bind(globalThis);
const nativeSetImmediate = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;
const nativeEval = globalThis.eval;
const nativeNow = performance.now.bind(performance);
const nativeRandomValues = crypto.getRandomValues.bind(crypto);
const NativeURL = URL;
// Node's own process, in the frame's Node stand-in only (the guest replaces the global with its own).
const hostProcess = (globalThis as { process?: { on?(event: string, listener: (reason: unknown, promise: unknown) => void): void } }).process;
const nativePerformance = performance as { memory?: { usedJSHeapSize?: number } };
const nativeHeapBytes = () => nativePerformance.memory?.usedJSHeapSize ?? 0;

/** Thrown by process.exit() to unwind the program; the loop ends the process. */
class ProcessExit extends Error {}

export type NativeRunRequest = { id: number; job: EngineJob; reply: SharedArrayBuffer; control: SharedArrayBuffer; send: (message: EngineToHost) => void };

/** The one process of this worker: the guest is evaluated at construction, so a job starts with the program. */
export class NativeRun {
  private hooks: GuestHooks | undefined;
  private setupError: unknown;
  private request!: NativeRunRequest;
  private control: Int32Array<ArrayBufferLike> = new Int32Array(3);
  private channel!: SyncFsChannel;
  private output!: OutputBatch;
  private exitCode: number | undefined;
  private tests: TestCounts | undefined;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  /** Browser work a program awaits that the guest's loop cannot see (compiling wasm): the process lives on meanwhile. */
  private nativePending = 0;

  constructor(private readonly guest: GuestSources) {
    this.trackNativeWork();
    hideBrowserGlobals();
    (globalThis as unknown as { __conchHost: EngineHost }).__conchHost = this.host();
    try {
      nativeEval(`${guest.core}\n//# sourceURL=node:internal/conch`);
      this.hooks = (globalThis as unknown as { __conchGuest: GuestHooks }).__conchGuest;
    } catch (error) {
      this.setupError = error;
    }
  }

  /** Runs the job to its end. */
  async execute(request: NativeRunRequest): Promise<RunOutcome> {
    this.request = request;
    this.output = new OutputBatch(request.send, request.id);
    this.control = new Int32Array(request.control);
    this.channel = new SyncFsChannel(request.reply, request.id, request.send, () => this.stopped());
    if (this.setupError !== undefined) {
      const outcome = this.fatal(this.setupError);
      this.output.flush();
      return outcome;
    }
    this.listenForUnhandled();

    this.step(() => this.hooks!.start(JSON.stringify(request.job)));
    while (!this.ended()) {
      await nextTask(); // the browser runs the promise jobs the last step queued
      if (this.ended()) break;
      // Re-armed before the guest looks at the host's events: one arriving after that look wakes the wait below.
      Atomics.store(this.control, CONTROL_WAKE, 0);
      const wait = Number(this.step(() => this.hooks!.nextTimer()) ?? -1);
      if (this.ended()) break;
      if (wait < 0 && this.nativePending === 0) {
        const more = this.step(() => this.hooks!.beforeExit());
        if (more === 'true') continue;
        await nextTask();
        if (this.ended() || this.step(() => this.hooks!.nextTimer()) !== '-1') continue; // beforeExit's promise jobs scheduled more
        break;
      }
      if (this.nativePending > 0 || wait > 0) this.output.flush();
      if (this.nativePending > 0) {
        // Blocking on the control buffer would hold back the browser's own callbacks: look again shortly instead.
        await new Promise((resolve) => nativeSetTimeout(resolve, wait < 0 ? NATIVE_POLL_MS : Math.min(wait, NATIVE_POLL_MS)));
      } else if (wait > 0) Atomics.wait(this.control, CONTROL_WAKE, 0, wait);
      if (this.ended()) break;
      this.step(() => this.hooks!.runTimers());
    }
    if (this.exitCode === undefined && !this.stopped()) {
      const code = this.step(() => this.hooks!.exit());
      this.exitCode ??= Number(code ?? 0); // process.exit(n) in an 'exit' listener has set it already
    }
    this.output.flush();
    return { exitCode: this.exitCode ?? 130, tests: this.tests };
  }

  // The browser's asynchronous work that a Node program may await (Node's loop waits for it too), counted while it
  // runs: compiling wasm, and fetch (which the frame's CSP fails, but a moment later, not at once).
  private trackNativeWork(): void {
    const scope = globalThis as unknown as Record<string, unknown>;
    const wasm = scope.WebAssembly as Record<string, unknown> | undefined;
    const targets: [Record<string, unknown>, string][] = [[scope, 'fetch'], ...['compile', 'instantiate', 'compileStreaming', 'instantiateStreaming'].map((name): [Record<string, unknown>, string] => [wasm ?? {}, name])];
    for (const [owner, name] of targets) {
      const original = owner[name];
      if (typeof original !== 'function') continue;
      owner[name] = (...args: unknown[]) => {
        this.nativePending++;
        return Promise.resolve()
          .then(() => (original as (...args: unknown[]) => unknown).apply(owner, args))
          .finally(() => this.nativePending--);
      };
    }
  }

  private ended(): boolean {
    return this.exitCode !== undefined || this.stopped();
  }

  private stopped(): boolean {
    return Atomics.load(this.control, CONTROL_STOP) !== 0;
  }

  /** Runs one guest entry point; an error that escaped the guest's own handlers ends the process. */
  private step(action: () => string | void): string | undefined {
    try {
      return action() ?? '';
    } catch (error) {
      if (!(error instanceof ProcessExit) && !this.ended()) this.fatal(error);
      return undefined;
    }
  }

  // A promise rejected with no handler goes to the program's 'unhandledRejection' listeners, as in Node, or else ends
  // the process with the reason printed.
  private listenForUnhandled(): void {
    const onRejection = (reason: unknown, promise: unknown) => {
      if (reason instanceof ProcessExit || this.ended()) return;
      const guestProcess = (globalThis as { process?: { listenerCount?(event: string): number; emit?(event: string, ...args: unknown[]): unknown } }).process;
      if ((guestProcess?.listenerCount?.('unhandledRejection') ?? 0) > 0) {
        this.step(() => void guestProcess!.emit!('unhandledRejection', reason, promise));
        return;
      }
      this.fatal(reason);
    };
    const scope = globalThis as unknown as { addEventListener?: (type: string, listener: (event: { reason: unknown; promise: unknown; preventDefault(): void }) => void) => void };
    if (typeof scope.addEventListener === 'function') {
      scope.addEventListener('unhandledrejection', (event) => {
        event.preventDefault();
        onRejection(event.reason, event.promise);
      });
      return;
    }
    hostProcess?.on?.('unhandledRejection', onRejection); // the frame's Node stand-in (tests)
  }

  /** An error no guest handler caught: the guest prints it as Node does, else it is printed here. */
  private fatal(error: unknown): RunOutcome {
    if (this.ended()) return { exitCode: this.exitCode ?? 130 };
    try {
      const printed = this.output.written;
      if (this.hooks) {
        const code = this.hooks.reportFatal(error);
        // A guest that failed while starting has no reporter yet: its error is printed below.
        if (this.output.written > printed) {
          this.exitCode = code;
          return { exitCode: code };
        }
      }
    } catch {
      // reported below
    }
    const text = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
    this.output.write(2, `node: the embedded runtime failed: ${text}\n`);
    this.exitCode = 1;
    return { exitCode: 1 };
  }


  private call(op: string, args: unknown[], data?: Uint8Array): string | ArrayBuffer {
    this.output.flush(); // keep output in order with what the host sees of the file system
    const reply = this.channel.call({ op, args, data });
    if (reply.kind === 'json') return reply.text;
    if (reply.kind === 'bytes') return reply.bytes.buffer as ArrayBuffer;
    throw Object.assign(new Error(reply.message), { code: reply.code });
  }

  private host(): EngineHost {
    return {
      write: (fd, text) => {
        if (this.exitCode === undefined) this.output.write(fd === 2 ? 2 : 1, String(text));
      },
      fs: (op, argsJson, data) => this.call(String(op), JSON.parse(String(argsJson)) as unknown[], data ? new Uint8Array(data) : undefined),
      packageSource: (name) => {
        const source = this.guest.packages[name];
        if (source === undefined) throw new Error(`No bundled package ${name}`);
        return source;
      },
      compile: (code, filename) => nativeEval(`${code}\n//# sourceURL=${filename.replace(/[\r\n]/g, ' ')}`),
      encodeUtf8: (text) => this.encoder.encode(text).buffer as ArrayBuffer,
      decodeUtf8: (bytes) => this.decoder.decode(bytes),
      now: () => nativeNow(),
      randomBytes: (count) => {
        const out = new Uint8Array(Math.max(0, Math.min(Number(count) || 0, 1 << 20)));
        for (let i = 0; i < out.length; i += 65536) nativeRandomValues(out.subarray(i, i + 65536));
        return out.buffer;
      },
      hash: (algorithm, data) => {
        const hash = HASHES[algorithm];
        if (!hash) throw new Error(`Digest method not supported: ${algorithm}`);
        return hash(new Uint8Array(data)).slice().buffer as ArrayBuffer;
      },
      parseUrl: (input, base) => {
        try {
          const { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin } = new NativeURL(input, base);
          return JSON.stringify({ href, protocol, username, password, host, hostname, port, pathname, search, hash, origin });
        } catch {
          return '';
        }
      },
      stripTypes: (code, filename) => {
        try {
          return String(JSON.parse(this.call(STRIP_TYPES_OP, [filename], this.encoder.encode(code)) as string));
        } catch (error) {
          const syntax = new SyntaxError(error instanceof Error ? error.message : String(error));
          throw syntax;
        }
      },
      exit: (code) => {
        this.exitCode ??= code === undefined ? 0 : Number(code);
        throw new ProcessExit('process.exit');
      },
      reportTests: (counts) => {
        this.tests = JSON.parse(counts) as TestCounts;
      },
      hostEvents: () => Atomics.load(this.control, CONTROL_EVENTS),
      memoryUsage: () => nativeHeapBytes(),
    };
  }
}

// What a worker has and Node 20 has not: a program probing for them would take itself for a browser's (and the frame
// blocks them anyway). Removed from the global object and its prototypes before the guest runs.
const BROWSER_ONLY = ['indexedDB', 'caches', 'cookieStore', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'importScripts', 'location', 'navigator', 'Worker', 'SharedWorker', 'FileReaderSync'];

function hideBrowserGlobals(): void {
  for (const name of BROWSER_ONLY) {
    let owner: object | null = globalThis;
    while (owner && !Object.prototype.hasOwnProperty.call(owner, name)) owner = Object.getPrototypeOf(owner) as object | null;
    if (owner) Reflect.deleteProperty(owner, name);
  }
}

/** Resolves in a later task (not a microtask), so every promise job queued so far has run by then. */
function nextTask(): Promise<void> {
  if (nativeSetImmediate) return new Promise((resolve) => nativeSetImmediate(resolve));
  return new Promise((resolve) => {
    const channel = new NativeMessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}
