// The host's engine workers, of one engine (QuickJS, or the browser's own in the sandbox frame): one kept warm between
// `node` runs (so `node -e 1` does not pay for a worker start), more started when runs overlap. A run is served
// here: its output collected, its file-system requests answered through its run channel, and its stop request
// delivered (the stop slot first; the worker is terminated if the program has not stopped within STOP_GRACE_MS).

import type { IFileSystem } from 'just-bash';
import type { EngineJob, EngineToHost, FsRequest, TestCounts } from './protocol';
import { answerFsRequest, type FsAnswer } from './fs-service';
import { ChildProcesses, type NodeLauncher, type ShellExec } from '../subprocess/child-processes';
import { CHILD_OP_PREFIX } from '../subprocess/messages';
import { quickJsEngine, type EngineSource, type EngineWorkerPort } from './worker-start';
import type { RunChannel } from './run-channel';
import { captureAsyncContext } from './async-context';
import { HOST_OP_PREFIX } from '../sandbox/host-ops';
import { answerHostRequest } from '../sandbox/host-op-answers';
import { MODULE_OP_PREFIX } from '../module-transform/messages';
import { ModuleTransformer } from '../module-transform/module-transformer';
import { StoredModules, type ModuleStore } from '../module-transform/stored-modules';

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
/**
 * What one program may print before it is stopped, the shell's own cap on a command's output (just-bash's 256 MiB):
 * the host keeps every character until the program ends, and a print loop would otherwise fill the worker's memory.
 */
const MAX_OUTPUT_CHARS = 256 * 1024 * 1024;
/** A worker whose WebAssembly memory grew past this is replaced after its run, returning the memory. */
const RECYCLE_HEAP_BYTES = 64 * 1024 * 1024;

/** What a run may use besides its file system: the shell and `node` for its children, and a listener for its output. */
export type RunAround = { exec?: ShellExec; runNode?: NodeLauncher; onOutput?: (fd: 1 | 2, text: string) => void };

/** Engine workers for one embedded runtime. */
export class EnginePool {
  private idle: Promise<EngineWorker> | undefined;
  private readonly live = new Set<EngineWorker>();
  private disposed = false;
  /** One per pool, so a package's modules are transformed once for the runtime's life (and past it, when stored). */
  private readonly modules: ModuleTransformer;

  /** `maxOutputChars`: what one program may print before it is stopped (tests use less); `moduleStore`: see ModuleTransformer. */
  constructor(
    private readonly engine: EngineSource = quickJsEngine,
    private readonly maxOutputChars = MAX_OUTPUT_CHARS,
    moduleStore?: ModuleStore,
  ) {
    this.modules = new ModuleTransformer(undefined, moduleStore && new StoredModules(moduleStore));
    if (engine.name === 'browser') this.modules.prepare(); // its ES modules all go through the transform
  }

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
      return await worker.run(job, fs, { ...around, signal, warm: () => this.warm(), modules: this.modules, maxOutputChars: this.maxOutputChars });
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
    const starting = EngineWorker.start(this.engine);
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
    let worker = await (idle ?? EngineWorker.start(this.engine));
    if (!worker.reusable()) {
      this.retire(worker); // it retired itself after its last job
      worker = await EngineWorker.start(this.engine);
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
  channel: RunChannel;
  stdout: string[];
  stderr: string[];
  /** Characters printed so far; past MAX_OUTPUT_CHARS the run is stopped. */
  printed: number;
  maxOutputChars: number;
  stopForOutput(): void;
  /** Hears the output as it arrives (a streamed child process). */
  onOutput?: (fd: 1 | 2, text: string) => void;
  /** A reply too large for the buffer, kept until the engine sends a larger one. */
  pending?: FsAnswer;
  /** File-system requests are answered one after another, as the engine blocks on each. */
  queue: Promise<void>;
  /** Runs a callback in the async context the run started in (async-context.ts). */
  inContext: <T>(fn: () => T) => T;
  finish(result: { exitCode: number; tests?: TestCounts } | { crashed: string }): void;
};

/** What a run may use around its file system: its stop signal, and the shell for its child processes. */
type RunServices = RunAround & { signal?: AbortSignal; warm(): void; modules: ModuleTransformer; maxOutputChars: number };

/** One engine worker, started and initialised by its engine, running one job at a time. */
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

  static async start(engine: EngineSource): Promise<EngineWorker> {
    return new EngineWorker(await engine.start());
  }

  reusable(): boolean {
    return this.healthy && this.port.reusable && this.heapBytes < RECYCLE_HEAP_BYTES;
  }

  terminate(): void {
    this.healthy = false;
    this.port.terminate();
  }

  run(job: EngineJob, fs: IFileSystem, { signal, exec, runNode, onOutput, warm, modules, maxOutputChars }: RunServices): Promise<RunResult> {
    const id = EngineWorker.nextRunId++;
    let children: ChildProcesses | undefined;
    const wake = (): void => run.channel.signal('event');
    let run: ActiveRun;
    return new Promise<RunResult>((resolve) => {
      let stopped = false;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const stop = (): void => {
        if (stopped) return;
        stopped = true;
        run.channel.signal('stop');
        grace = setTimeout(() => {
          this.terminate();
          run.finish({ crashed: 'stopped' });
        }, STOP_GRACE_MS);
      };
      run = {
        id,
        fs,
        modules,
        children: () => (children ??= new ChildProcesses({ exec, runNode, signal, wake, warm })),
        channel: { reply: () => false, grown: () => {}, signal: () => {} }, // until the run has started, below
        stdout: [],
        stderr: [],
        printed: 0,
        maxOutputChars,
        stopForOutput: () => {
          if (stopped) return;
          run.stderr.push(`\nnode: the program printed more than ${(maxOutputChars / 2 ** 20).toFixed(0)} MB and was stopped.\n`);
          stop();
        },
        onOutput,
        queue: Promise.resolve(),
        inContext: captureAsyncContext(),
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
      run.channel = this.port.startRun(id, job);
      if (signal?.aborted) stop();
      else signal?.addEventListener('abort', stop, { once: true });
    });
  }

  private receive(message: EngineToHost): void {
    switch (message.type) {
      case 'ready':
      case 'init-failed':
        return; // the engine's start() waited for these
      case 'output': {
        const run = this.current(message.id);
        if (!run) return;
        for (const [fd, text] of message.chunks) {
          run.printed += text.length;
          if (run.printed > run.maxOutputChars) return run.stopForOutput();
          (fd === 2 ? run.stderr : run.stdout).push(text);
          run.onOutput?.(fd === 2 ? 2 : 1, text);
        }
        return;
      }
      case 'fs': {
        const run = this.current(message.id);
        if (run) run.queue = run.queue.then(() => run.inContext(() => this.answer(run, message.request)));
        return;
      }
      case 'fs-grow': {
        const run = this.current(message.id);
        if (run?.pending) {
          run.channel.grown(message.reply, run.pending);
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
      : request.op.startsWith(HOST_OP_PREFIX)
        ? await answerHostRequest(request)
        : request.op.startsWith(MODULE_OP_PREFIX)
          ? await run.modules.answerModuleRequest(request)
          : await answerFsRequest(run.fs, request);
    if (!run.channel.reply(answer)) run.pending = answer;
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
