// The engine: one QuickJS runtime per `node` process, inside the engine worker. It installs the host functions the
// guest (the bundled Node environment) is built on, evaluates the guest, starts the job, and drives the event loop:
// promise jobs, then timers, sleeping on the control buffer so a stop request wakes it. A stop request or
// process.exit() trips QuickJS's interrupt handler, which unwinds even a `while (true) {}`.

import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { md5, sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { CONTROL_EVENTS, CONTROL_STOP, CONTROL_WAKE, type EngineJob, type EngineToHost, type GuestSources, type TestCounts } from './protocol';
import { SyncFsChannel } from './sync-fs-channel';
import type { EngineHost, GuestHooks } from '../guest/host-api';
import { OutputBatch } from './output-batch';

export type TypeStripper = (code: string, filename: string) => string;

/** `broken`: QuickJS could not be freed cleanly (a program stopped mid-way); the worker must be replaced. */
export type RunOutcome = { exitCode: number; tests?: TestCounts; broken?: boolean };


const HASHES: Record<string, (data: Uint8Array) => Uint8Array> = { md5, sha1, sha256, sha512 };

/** What every run of one engine worker shares. */
export type EngineSetup = { module: QuickJSWASMModule; guest: GuestSources; maxStackBytes: number; stripTypes: TypeStripper };

/** One job as the host sent it: the program, the shared buffers, and where messages go. */
export type JobRequest = {
  id: number;
  job: EngineJob;
  reply: SharedArrayBuffer;
  control: SharedArrayBuffer;
  send: (message: EngineToHost) => void;
};

/**
 * One `node` process. `new EngineRun(setup)` builds the QuickJS runtime and evaluates the guest environment ahead of
 * the job (the engine worker prepares the next one while it is idle); `execute` runs a job to its end; `dispose`
 * frees QuickJS.
 */
export class EngineRun {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private request!: JobRequest;
  private control: Int32Array<ArrayBufferLike> = new Int32Array(3);
  private channel!: SyncFsChannel;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private output!: OutputBatch;
  private exitCode: number | undefined;
  private tests: TestCounts | undefined;
  private hooks: QuickJSHandle | undefined;
  private setupError: QuickJSHandle | undefined;

  constructor(private readonly setup: EngineSetup) {
    this.runtime = setup.module.newRuntime();
    this.runtime.setMaxStackSize(setup.maxStackBytes);
    this.runtime.setInterruptHandler(() => this.exitCode !== undefined || Atomics.load(this.control, CONTROL_STOP) !== 0);
    this.runtime.setModuleLoader(
      (name) => this.moduleHook('loadModule', [name]),
      (base, request) => this.moduleHook('resolveModule', [base, request]),
    );
    this.vm = this.runtime.newContext();
    this.installHost();
    const evaluated = this.vm.evalCode(setup.guest.core, 'node:internal/conch');
    if (evaluated.error) this.setupError = evaluated.error;
    else {
      evaluated.value.dispose();
      this.hooks = this.vm.getProp(this.vm.global, '__conchGuest');
    }
  }

  /** Runs the job to its end; `broken` in the outcome when QuickJS could not be freed afterwards. */
  execute(request: JobRequest): RunOutcome {
    this.request = request;
    this.output = new OutputBatch(request.send, request.id);
    this.control = new Int32Array(request.control);
    this.channel = new SyncFsChannel(request.reply, request.id, request.send, () => this.stopped());
    this.runtime.setMemoryLimit(request.job.memoryLimitBytes);
    if (this.setupError) return this.fatal(this.setupError);

    this.step(() => this.callHook('start', [JSON.stringify(request.job)]));
    while (!this.ended()) {
      this.drainJobs();
      if (this.ended()) break;
      // Re-armed before the guest looks at the host's events: one arriving after that look wakes the wait below.
      Atomics.store(this.control, CONTROL_WAKE, 0);
      const wait = Number(this.step(() => this.callHook('nextTimer', [])) ?? -1);
      if (this.ended()) break;
      if (wait < 0) {
        const more = this.step(() => this.callHook('beforeExit', []));
        if (more === 'true') continue;
        break;
      }
      if (wait > 0) {
        this.output.flush();
        Atomics.wait(this.control, CONTROL_WAKE, 0, wait);
      }
      if (this.ended()) break;
      this.step(() => this.callHook('runTimers', []));
    }
    if (this.exitCode === undefined && !this.stopped()) {
      const code = this.step(() => this.callHook('exit', []));
      this.exitCode ??= Number(code ?? 0); // process.exit(n) in an 'exit' listener has set it already
    }
    this.output.flush();
    return { exitCode: this.exitCode ?? 130, tests: this.tests };
  }

  /** Frees the QuickJS runtime; false when QuickJS refused (a run stopped mid-way can leave objects behind). */
  dispose(): boolean {
    try {
      this.hooks?.dispose();
      this.vm.dispose();
      this.runtime.dispose();
      return true;
    } catch {
      return false;
    }
  }

  private ended(): boolean {
    return this.exitCode !== undefined || this.stopped();
  }

  private stopped(): boolean {
    return Atomics.load(this.control, CONTROL_STOP) !== 0;
  }

  private drainJobs(): void {
    while (!this.ended() && this.runtime.hasPendingJob()) {
      const result = this.runtime.executePendingJobs();
      if (result.error) {
        this.fatal(result.error);
        return;
      }
    }
  }

  /** Runs one guest entry point; an error that escaped the guest's own handlers ends the process. */
  private step(action: () => string): string | undefined {
    try {
      return action();
    } catch (error) {
      if (!(error instanceof GuestError)) throw error;
      if (this.ended()) error.handle.dispose();
      else this.fatal(error.handle);
      return undefined;
    }
  }

  /** Calls a GuestHooks function with string arguments and returns its result as a string. */
  private callHook(name: keyof GuestHooks, args: string[]): string {
    const hooks = this.hooks;
    if (!hooks) throw new Error('The guest environment did not start.');
    const fn = this.vm.getProp(hooks, name);
    const handles = args.map((arg) => this.vm.newString(arg));
    try {
      const result = this.vm.callFunction(fn, hooks, ...handles);
      if (result.error) throw new GuestError(result.error);
      const value = this.vm.typeof(result.value) === 'undefined' ? '' : this.vm.getString(result.value);
      result.value.dispose();
      return value;
    } finally {
      fn.dispose();
      for (const handle of handles) handle.dispose();
    }
  }

  /** A module hook's answer for QuickJS's loader: the string, or the guest's error to throw at the import. */
  private moduleHook(name: 'loadModule' | 'resolveModule', args: string[]): string | { error: QuickJSHandle } {
    try {
      return this.callHook(name, args);
    } catch (error) {
      if (error instanceof GuestError) return { error: error.handle };
      throw error;
    }
  }

  /** An error no guest handler caught (or the guest itself failed): let the guest print it, else print it here. */
  private fatal(error: QuickJSHandle): RunOutcome {
    try {
      if (this.ended()) return { exitCode: this.exitCode ?? 130 };
      if (this.hooks) {
        const report = this.vm.getProp(this.hooks, 'reportFatal');
        const result = this.vm.callFunction(report, this.hooks, error);
        report.dispose();
        if (!result.error) {
          this.exitCode = this.vm.getNumber(result.value);
          result.value.dispose();
          return { exitCode: this.exitCode };
        }
        result.error.dispose();
      }
      const dumped = this.vm.dump(error) as { name?: string; message?: string; stack?: string } | string;
      const text = typeof dumped === 'object' && dumped ? `${dumped.name}: ${dumped.message}\n${dumped.stack ?? ''}` : String(dumped);
      this.output.write(2, `node: the embedded runtime failed: ${text}\n`);
      this.exitCode = 1;
      return { exitCode: 1 };
    } finally {
      error.dispose();
    }
  }


  private installHost(): void {
    const vm = this.vm;
    const host = vm.newObject();
    const define = (name: keyof EngineHost, fn: (...args: QuickJSHandle[]) => QuickJSHandle | { error: QuickJSHandle } | undefined) => {
      const handle = vm.newFunction(name, fn);
      vm.setProp(host, name, handle);
      handle.dispose();
    };
    const text = (handle: QuickJSHandle | undefined) => (handle === undefined ? '' : vm.getString(handle));
    const bytes = (handle: QuickJSHandle | undefined) => {
      if (handle === undefined || vm.typeof(handle) === 'undefined') return new Uint8Array(0);
      const lifetime = vm.getArrayBuffer(handle);
      const copy = lifetime.value.slice();
      lifetime.dispose();
      return copy;
    };
    const buffer = (data: Uint8Array) => vm.newArrayBuffer(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);

    define('write', (fd, chunk) => {
      if (this.exitCode === undefined) this.output.write(vm.getNumber(fd) === 2 ? 2 : 1, text(chunk));
      return undefined;
    });
    define('fs', (op, args, data) => {
      this.output.flush(); // keep output in order with what the host sees of the file system
      const request = { op: text(op), args: JSON.parse(text(args)) as unknown[], data: data ? bytes(data) : undefined };
      const reply = this.channel.call(request);
      if (reply.kind === 'json') return vm.newString(reply.text);
      if (reply.kind === 'bytes') return buffer(reply.bytes);
      const error = vm.newError(reply.message);
      vm.setProp(error, 'code', vm.newString(reply.code));
      return { error };
    });
    define('packageSource', (name) => {
      const source = this.setup.guest.packages[text(name)];
      return source === undefined ? { error: vm.newError(`No bundled package ${text(name)}`) } : vm.newString(source);
    });
    define('compile', (code, filename) => {
      const result = vm.evalCode(text(code), text(filename));
      return result.error ? { error: result.error } : result.value;
    });
    define('encodeUtf8', (value) => buffer(this.encoder.encode(text(value))));
    define('decodeUtf8', (data) => vm.newString(this.decoder.decode(bytes(data))));
    define('now', () => vm.newNumber(performance.now()));
    define('randomBytes', (count) => {
      const out = new Uint8Array(Math.max(0, Math.min(vm.getNumber(count), 1 << 20)));
      for (let i = 0; i < out.length; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
      return buffer(out);
    });
    define('hash', (algorithm, data) => {
      const hash = HASHES[text(algorithm)];
      if (!hash) return { error: vm.newError(`Digest method not supported: ${text(algorithm)}`) };
      return buffer(hash(bytes(data)));
    });
    define('parseUrl', (input, base) => {
      try {
        const url = new URL(text(input), base && vm.typeof(base) === 'string' ? text(base) : undefined);
        const { href, protocol, username, password, host, hostname, port, pathname, search, hash, origin } = url;
        return vm.newString(JSON.stringify({ href, protocol, username, password, host, hostname, port, pathname, search, hash, origin }));
      } catch {
        return vm.newString('');
      }
    });
    define('stripTypes', (code, filename) => {
      try {
        return vm.newString(this.setup.stripTypes(text(code), text(filename)));
      } catch (error) {
        const syntax = vm.newError({ name: 'SyntaxError', message: error instanceof Error ? error.message : String(error) });
        return { error: syntax };
      }
    });
    define('exit', (code) => {
      this.exitCode ??= code === undefined ? 0 : vm.getNumber(code);
      return { error: vm.newError('process.exit') }; // unwinds now; the interrupt handler stops anything that catches it
    });
    define('reportTests', (counts) => {
      this.tests = JSON.parse(text(counts)) as TestCounts;
      return undefined;
    });
    define('hostEvents', () => vm.newNumber(Atomics.load(this.control, CONTROL_EVENTS)));
    define('memoryUsage', () => vm.newNumber(this.setup.module.getWasmMemory().buffer.byteLength));
    vm.setProp(vm.global, '__conchHost', host);
    host.dispose();
  }
}

/** A guest exception escaping a hook call, still owned by the caller. */
class GuestError extends Error {
  constructor(readonly handle: QuickJSHandle) {
    super('guest exception');
  }
}
