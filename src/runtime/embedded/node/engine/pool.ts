// The host's engine workers: one kept warm between `node` runs (so `node -e 1` does not pay for a worker start), more
// started when runs overlap. A run is served here: its output collected, its file-system requests answered into the
// shared reply buffer, and its stop request delivered (interrupt flag first; the worker is terminated if the program
// has not stopped within STOP_GRACE_MS).

import type { IFileSystem } from 'just-bash';
import {
  CONTROL_BYTES,
  CONTROL_EVENTS,
  CONTROL_STOP,
  CONTROL_WAKE,
  REPLY_HEADER_BYTES,
  REPLY_INITIAL_BYTES,
  REPLY_KIND,
  REPLY_LENGTH,
  REPLY_STATE,
  ReplyKind,
  ReplyState,
  type EngineJob,
  type EngineToHost,
  type FsRequest,
  type TestCounts,
} from './protocol';
import { answerFsRequest, type FsAnswer } from './fs-service';
import { ChildProcesses, type NodeLauncher, type ShellExec } from '../subprocess/child-processes';
import { CHILD_OP_PREFIX } from '../subprocess/messages';
import { maxStackBytes, startEngineWorker, type EngineWorkerPort } from './worker-start';
import { loadEngineAssets } from './assets';
import { MODULE_OP_PREFIX } from '../module-transform/messages';
import { ModuleTransformer } from '../module-transform/module-transformer';

export type RunResult = {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the run was stopped from outside (the caller's timeout or abort). */
  stopped: boolean;
  tests?: TestCounts;
};

/** How long a stopped program may take to unwind before its worker is terminated. */
const STOP_GRACE_MS = 100;
/** Engine workers alive at once (a process and its children each hold one); past it a run fails with a message. */
const MAX_WORKERS = 16;
/** A worker whose WebAssembly memory grew past this is replaced after its run, returning the memory. */
const RECYCLE_HEAP_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();

/** What a run may use besides its file system: the shell and `node` for its children, and a listener for its output. */
export type RunAround = { exec?: ShellExec; runNode?: NodeLauncher; onOutput?: (fd: 1 | 2, text: string) => void };

/** Engine workers for one embedded runtime. */
export class EnginePool {
  private idle: Promise<EngineWorker> | undefined;
  private readonly live = new Set<EngineWorker>();
  private disposed = false;
  /** One per pool, so a package's modules are transformed once for the runtime's life. */
  private readonly modules = new ModuleTransformer();

  /** Runs `job` on a warm worker against `fs`; `signal` stops it; `around` runs its children and hears its output. */
  async run(job: EngineJob, fs: IFileSystem, signal?: AbortSignal, around: RunAround = {}): Promise<RunResult> {
    if (this.live.size >= MAX_WORKERS && !this.idle) {
      return { stdout: '', stderr: `node: more than ${MAX_WORKERS} node processes are running at once (each child process that runs node is one); end some first.\n`, exitCode: 1, stopped: false };
    }
    // just-bash gives an aborted command 100 ms to return before it fails the whole script: a run stopped while
    // its worker is still starting returns now, and the worker goes back to the pool when it is ready.
    const taking = this.take();
    const worker = await untilAborted(taking, signal);
    if (!worker) {
      taking.then((late) => this.release(late), () => {});
      return { stdout: '', stderr: '', exitCode: 130, stopped: true };
    }
    try {
      return await worker.run(job, fs, { ...around, signal, warm: () => this.warm(), modules: this.modules });
    } finally {
      this.release(worker);
    }
  }

  /** A worker back from a run: kept as the idle one if it can run again and none is idle, else ended. */
  private release(worker: EngineWorker): void {
    if (worker.reusable() && !this.disposed && !this.idle) this.idle = Promise.resolve(worker);
    else this.retire(worker);
    this.warm();
  }

  /** Starts a worker ahead of the first run. */
  warm(): void {
    if (this.disposed || this.idle) return;
    const starting = EngineWorker.start();
    this.idle = starting;
    starting.then(
      (worker) => (this.disposed ? worker.terminate() : this.live.add(worker)),
      () => {
        if (this.idle === starting) this.idle = undefined; // the next run reports the failure
      },
    );
  }

  dispose(): void {
    this.disposed = true;
    for (const worker of this.live) worker.terminate();
    this.live.clear();
    this.idle = undefined;
  }

  private async take(): Promise<EngineWorker> {
    if (this.disposed) throw new Error('node: the embedded runtime was disposed.');
    const idle = this.idle;
    this.idle = undefined;
    let worker = await (idle ?? EngineWorker.start());
    if (!worker.reusable()) {
      this.retire(worker); // it retired itself after its last job
      worker = await EngineWorker.start();
    }
    this.live.add(worker);
    return worker;
  }

  private retire(worker: EngineWorker): void {
    this.live.delete(worker);
    worker.terminate();
  }
}

type ActiveRun = {
  id: number;
  fs: IFileSystem;
  modules: ModuleTransformer;
  /** The program's child processes, once it starts one. */
  children: () => ChildProcesses;
  reply: SharedArrayBuffer;
  control: Int32Array;
  stdout: string[];
  stderr: string[];
  /** Hears the output as it arrives (a streamed child process). */
  onOutput?: (fd: 1 | 2, text: string) => void;
  /** A reply too large for the buffer, kept until the engine sends a larger one. */
  pending?: FsAnswer;
  /** File-system requests are answered one after another, as the engine blocks on each. */
  queue: Promise<void>;
  finish(result: { exitCode: number; tests?: TestCounts } | { crashed: string }): void;
};

/** What a run may use around its file system: its stop signal, and the shell for its child processes. */
type RunServices = RunAround & { signal?: AbortSignal; warm(): void; modules: ModuleTransformer };

/** One engine worker: initialised with the engine assets, running one job at a time. */
class EngineWorker {
  /** Run ids are unique across a thread's workers: a late message from a replaced worker never matches a new run. */
  private static nextRunId = 1;
  private active: ActiveRun | undefined;
  private healthy = true;
  private heapBytes = 0;

  private constructor(private readonly port: EngineWorkerPort) {
    port.onMessage((message) => this.receive(message));
    port.onExit((reason) => {
      this.healthy = false;
      this.active?.finish({ crashed: reason });
    });
  }

  static async start(): Promise<EngineWorker> {
    const assets = await loadEngineAssets();
    const port = startEngineWorker();
    const worker = new EngineWorker(port);
    await new Promise<void>((resolve, reject) => {
      worker.onReady = resolve;
      worker.onInitFailed = (message) => reject(new Error(`node: the JavaScript engine could not start: ${message}`));
      port.onExit((reason) => reject(new Error(`node: the JavaScript engine could not start: ${reason}`)));
      port.post({ type: 'init', wasm: assets.wasm, guest: assets.guest, maxStackBytes: maxStackBytes() });
    });
    return worker;
  }

  private onReady: () => void = () => {};
  private onInitFailed: (message: string) => void = () => {};

  reusable(): boolean {
    return this.healthy && this.heapBytes < RECYCLE_HEAP_BYTES;
  }

  terminate(): void {
    this.healthy = false;
    this.port.terminate();
  }

  run(job: EngineJob, fs: IFileSystem, { signal, exec, runNode, onOutput, warm, modules }: RunServices): Promise<RunResult> {
    const id = EngineWorker.nextRunId++;
    const reply = new SharedArrayBuffer(REPLY_HEADER_BYTES + REPLY_INITIAL_BYTES);
    const control = new Int32Array(new SharedArrayBuffer(CONTROL_BYTES));
    let children: ChildProcesses | undefined;
    const wake = (): void => {
      Atomics.add(control, CONTROL_EVENTS, 1);
      Atomics.store(control, CONTROL_WAKE, 1);
      Atomics.notify(control, CONTROL_WAKE);
    };
    return new Promise<RunResult>((resolve) => {
      let stopped = false;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const stop = (): void => {
        if (stopped) return;
        stopped = true;
        Atomics.store(control, CONTROL_STOP, 1);
        Atomics.store(control, CONTROL_WAKE, 1);
        Atomics.notify(control, CONTROL_WAKE);
        grace = setTimeout(() => {
          this.terminate();
          run.finish({ crashed: 'stopped' });
        }, STOP_GRACE_MS);
      };
      const run: ActiveRun = {
        id,
        fs,
        modules,
        children: () => (children ??= new ChildProcesses({ exec, runNode, signal, wake, warm })),
        reply,
        control,
        stdout: [],
        stderr: [],
        onOutput,
        queue: Promise.resolve(),
        finish: (result) => {
          if (this.active !== run) return;
          this.active = undefined;
          clearTimeout(grace);
          children?.dispose();
          signal?.removeEventListener('abort', stop);
          const crashed = 'crashed' in result;
          if (crashed && !stopped) run.stderr.push(`node: the JavaScript engine stopped unexpectedly: ${result.crashed}\n`);
          resolve({
            stdout: run.stdout.join(''),
            stderr: run.stderr.join(''),
            exitCode: crashed ? (stopped ? 130 : 1) : result.exitCode,
            stopped,
            tests: crashed ? undefined : result.tests,
          });
        },
      };
      this.active = run;
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
      this.port.post({ type: 'run', id, job, reply, control: control.buffer as SharedArrayBuffer });
    });
  }

  private receive(message: EngineToHost): void {
    switch (message.type) {
      case 'ready':
        this.onReady();
        return;
      case 'init-failed':
        this.healthy = false;
        this.onInitFailed(message.message);
        return;
      case 'output': {
        const run = this.current(message.id);
        for (const [fd, text] of message.chunks) {
          (fd === 2 ? run?.stderr : run?.stdout)?.push(text);
          run?.onOutput?.(fd === 2 ? 2 : 1, text);
        }
        return;
      }
      case 'fs': {
        const run = this.current(message.id);
        if (run) run.queue = run.queue.then(() => this.answer(run, message.request));
        return;
      }
      case 'fs-grow': {
        const run = this.current(message.id);
        if (run?.pending) {
          run.reply = message.reply;
          writeReply(run.reply, run.pending);
          run.pending = undefined;
        }
        return;
      }
      case 'retire':
        this.healthy = false;
        return;
      case 'done':
        this.heapBytes = message.heapBytes;
        if (message.broken) this.healthy = false;
        this.current(message.id)?.finish({ exitCode: message.exitCode, tests: message.tests });
        return;
      default: {
        const unknown: never = message;
        throw new Error(`Unknown engine message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private current(id: number): ActiveRun | undefined {
    return this.active?.id === id ? this.active : undefined;
  }

  private async answer(run: ActiveRun, request: FsRequest): Promise<void> {
    const answer = request.op.startsWith(CHILD_OP_PREFIX)
      ? await run.children().answer(request)
      : request.op.startsWith(MODULE_OP_PREFIX)
        ? await run.modules.answerModuleRequest(request)
        : await answerFsRequest(run.fs, request);
    if (!writeReply(run.reply, answer)) run.pending = answer;
  }
}

/** `promise`'s value, or undefined as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const abort = () => resolve(undefined);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}

/** Writes `answer` into the reply buffer and wakes the engine; false (and a TooBig reply) when it does not fit. */
function writeReply(reply: SharedArrayBuffer, answer: FsAnswer): boolean {
  const header = new Int32Array(reply, 0, REPLY_HEADER_BYTES / 4);
  const payload =
    answer.kind === 'bytes'
      ? answer.bytes
      : encoder.encode(answer.kind === 'json' ? JSON.stringify(answer.value ?? null) : JSON.stringify({ code: answer.code, message: answer.message }));
  const fits = payload.length <= reply.byteLength - REPLY_HEADER_BYTES;
  if (fits) new Uint8Array(reply, REPLY_HEADER_BYTES, payload.length).set(payload);
  Atomics.store(header, REPLY_LENGTH, payload.length);
  Atomics.store(header, REPLY_KIND, fits ? (answer.kind === 'bytes' ? ReplyKind.Bytes : answer.kind === 'json' ? ReplyKind.Json : ReplyKind.Error) : ReplyKind.TooBig);
  Atomics.store(header, REPLY_STATE, ReplyState.Ready);
  Atomics.notify(header, REPLY_STATE);
  return fits;
}
