// The embedded runtime as the page sees it: every Runtime method proxied to a Web Worker hosting just-bash, so a
// long command never freezes the tab. Stop requests reach even a tight loop through a shared stop table (when the
// page is cross-origin isolated). A command that still does not stop within STOP_GRACE_MS is ended the hard way:
// the worker is terminated and a new one is refilled from the page's rollback copy (files come back as they were
// before that command; the shell directory resets to the workdir) and the result says so. The copy costs what
// changed: before a command, only the paths changed since the last one are read back.

import type { EmbeddedRuntimeOptions } from './in-process';
import type { EmbeddedWorkerOptions, WorkerLike } from './worker-options';
import { offerNodeSandbox } from './node/sandbox/sandbox-offer';
import { STOP_SLOTS, type ForwardedMethod, type FromWorker, type MethodArgs, type MethodResult, type ToWorker } from './protocol';
import { appendNote, stopNote } from '../exec/notes';
import { relativeTo, resolvePath } from '../paths';
import { RollbackCopy } from './rollback-copy';
import type { ExecOptions, ExecResult, ForkOptions, Runtime, RuntimeFork, ScannedEntry, ScanOptions, StagedImport, WorkspaceBaseline, WorkspaceChanges, WorkspaceFile } from '../types';
import { openWorkerFork, type ForkLine } from './fork/worker-fork';
import type { CopiedEntry } from '../workspace/scan';
import { packFiles } from './packed-files';
import { answerBaselineFiles, answerNpmCall, GitPushAnswers, type WorkerLine } from './worker-requests';

export type { EmbeddedWorkerOptions, WorkerLike };

export const STOP_GRACE_MS = 3000;
// How long after a command's own deadline the page steps in, should the worker not have stopped it.
const WORKER_DEADLINE_MARGIN_MS = 250;

const defaultWorker = (): WorkerLike =>
  new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'conch-embedded-runtime' });

type Pending = { resolve(value: unknown): void; reject(error: Error): void; onOutput?: (chunk: string) => void };

/** Starts the embedded runtime in a Web Worker and resolves once it is ready. */
export async function createEmbeddedRuntimeInWorker(options: EmbeddedWorkerOptions = {}): Promise<Runtime> {
  const client = new WorkerEmbeddedRuntime(options);
  await client.start(options.files);
  return client;
}

class WorkerEmbeddedRuntime implements Runtime {
  readonly kind = 'embedded' as const;
  workdir: string;
  private worker: WorkerLike | undefined;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private readonly listeners = new Set<(paths: string[]) => void>();
  private readonly forkListeners = new Map<number, (paths: string[]) => void>();
  private readonly stopTable: Int32Array | undefined;
  /** Kept in the page: the worker asks for its files when git first needs them, and a new worker is told again. */
  private baseline: WorkspaceBaseline | null = null;
  private readonly rollback = new RollbackCopy();
  private readonly gitPushes = new GitPushAnswers();
  /** Read-backs of changed paths for the rollback copy still on their way. */
  private rollbackReads = 0;
  private disposed = false;
  /** How the answers to the worker's own requests reach it. */
  private readonly line: WorkerLine = {
    post: (message, transfer) => this.post(message, transfer),
    live: () => !this.disposed && this.worker !== undefined,
  };

  constructor(private readonly options: EmbeddedWorkerOptions) {
    this.workdir = options.workdir ?? '/home/project';
    this.stopTable =
      typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated !== false
        ? new Int32Array(new SharedArrayBuffer(STOP_SLOTS * Int32Array.BYTES_PER_ELEMENT))
        : undefined;
  }

  async start(files: EmbeddedRuntimeOptions['files']): Promise<void> {
    if (files) {
      const encoder = new TextEncoder();
      this.rollback.replace(Object.entries(files).map(([path, data]) => ({ path: this.relative(path) ?? path, data: typeof data === 'string' ? encoder.encode(data) : data })));
    }
    const worker = (this.options.createWorker ?? defaultWorker)();
    this.worker = worker;
    const ready = new Promise<void>((resolve, reject) => {
      worker.addEventListener('message', ({ data }) => {
        if (this.worker !== worker) return; // a replaced worker's late messages
        if (data.type === 'ready') {
          this.workdir = data.workdir;
          resolve();
        } else if (data.type === 'init-failed') reject(new Error(`The embedded runtime could not start: ${data.message}`));
        else this.receive(data);
      });
      worker.addEventListener('error', (event) => {
        const error = new Error(`The embedded runtime's worker failed: ${event.message ?? 'unknown error'}. Reload the page.`);
        reject(error);
        this.failAll(error);
      });
    });
    worker.postMessage({
      type: 'init',
      options: { files, workdir: this.options.workdir },
      stopTable: this.stopTable?.buffer as SharedArrayBuffer | undefined,
      npmHost: this.options.npm !== undefined,
      gitPushHost: this.options.gitPush !== undefined,
    });
    await ready;
    worker.postMessage({ type: 'watch', enabled: true });
    void offerNodeSandbox(this.options.nodeSandbox, (message, transfer) => worker.postMessage(message, transfer ?? []), () => this.worker === worker);
  }

  readFile = (...args: MethodArgs<'readFile'>) => this.call('readFile', args);
  readdir = (...args: MethodArgs<'readdir'>) => this.call('readdir', args);
  stat = (...args: MethodArgs<'stat'>) => this.call('stat', args);
  realpath = (...args: MethodArgs<'realpath'>) => this.call('realpath', args);
  exportZip = (...args: MethodArgs<'exportZip'>) => this.call('exportZip', args);
  search = (...args: MethodArgs<'search'>) => this.call('search', args);
  scan = (paths: string[], options?: ScanOptions): Promise<ScannedEntry[]> => this.call('scan', [paths, options]);
  flushChanges = (): Promise<void> => this.call('flushChanges', []);
  placeReadOnly = (...args: MethodArgs<'placeReadOnly'>) => this.call('placeReadOnly', args);
  writeFile = (...args: MethodArgs<'writeFile'>) => this.mutate('writeFile', args, [args[0]]);
  mkdir = (...args: MethodArgs<'mkdir'>) => this.mutate('mkdir', args, [args[0]]);
  rm = (...args: MethodArgs<'rm'>) => this.mutate('rm', args, [args[0]]);
  rename = (...args: MethodArgs<'rename'>) => this.mutate('rename', args, [args[0], args[1]]);

  async importZip(zip: Uint8Array): Promise<void> {
    await this.call('importZip', [zip]);
    this.rollback.replaceWithZip(zip);
    await this.settle();
  }

  /** The files travel packed into one buffer that is transferred, not cloned: 20,000 small copies cost more. */
  async importFiles(files: { path: string; data: Uint8Array }[]): Promise<void> {
    const packed = packFiles(files);
    await this.request((id) => this.post({ type: 'import-files', id, ...packed }, [packed.bytes]));
    this.rollback.replace(files.map((file) => ({ path: this.relative(file.path) ?? file.path, data: file.data })));
    await this.settle();
  }

  /** The changes travel like importFiles; the rollback copy takes them as given. */
  async applyChanges(changes: WorkspaceChanges): Promise<void> {
    await this.send(changes);
    this.rollback.applied(changes);
    await this.settle();
  }

  /** Each batch is packed and transferred as it is added, so the worker writes it while the page produces the next. */
  beginImport(): StagedImport {
    const stage = this.nextId++;
    this.post({ type: 'stage-begin', stage });
    let failure: Error | undefined;
    let open = true;
    const staged: WorkspaceFile[] = [];
    return {
      add: (files) => {
        if (!open || failure) return;
        try {
          const packed = packFiles(files);
          this.post({ type: 'stage-add', stage, ...packed }, [packed.bytes]);
          for (const file of files) staged.push(file);
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
        }
      },
      commit: () => {
        if (!open) return Promise.reject(new Error('This import was already committed or discarded; start the import again.'));
        open = false;
        if (failure) {
          this.post({ type: 'stage-discard', stage });
          return Promise.reject(failure);
        }
        return this.request((id) => this.post({ type: 'stage-commit', id, stage })).then(async () => {
          this.rollback.replace(staged);
          staged.length = 0;
          await this.settle();
        });
      },
      discard: () => {
        if (!open) return;
        open = false;
        if (!this.disposed && this.worker) this.post({ type: 'stage-discard', stage });
      },
    };
  }

  async setBaseline(baseline: WorkspaceBaseline | null): Promise<void> {
    this.baseline = baseline;
    this.post({ type: 'baseline', name: baseline?.name ?? null, remoteUrl: baseline?.remoteUrl });
  }

  /** A fork living in the worker beside the files (fork/worker-fork.ts). */
  fork(options?: ForkOptions): Promise<RuntimeFork> {
    const line: ForkLine = {
      workdir: this.workdir,
      call: (method, args, fork) => this.call(method, args, fork),
      exec: (command, opts, fork) => this.runExec(command, opts, fork),
      request: (send) => this.request(send),
      post: (message, transfer) => this.post(message, transfer),
      nextNumber: () => this.nextId++,
      listen: (fork, listener) => (listener ? this.forkListeners.set(fork, listener) : this.forkListeners.delete(fork)),
    };
    return openWorkerFork(line, options);
  }

  exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    return this.runExec(command, opts, undefined);
  }

  private async runExec(command: string, opts: ExecOptions, fork: number | undefined): Promise<ExecResult> {
    if (opts.signal?.aborted) return { output: stopNote('abort', undefined), exitCode: null };
    this.readBackChanged();
    const id = this.nextId++;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let stopReason: 'timeout' | 'abort' | undefined;
    const result = new Promise<ExecResult>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as ExecResult), reject, onOutput: opts.onOutput });
    });
    const requestStop = (reason: 'timeout' | 'abort'): void => {
      if (stopReason) return;
      stopReason = reason;
      if (this.stopTable) Atomics.store(this.stopTable, id % STOP_SLOTS, id);
      this.post({ type: 'abort', id });
      const grace = this.options.stopGraceMs ?? STOP_GRACE_MS;
      watchdog = setTimeout(() => void this.replaceWorker(id, reason, opts.timeoutMs), grace);
    };
    const onAbort = () => requestStop('abort');
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    // The worker enforces timeoutMs itself (and says "timed out"); this only starts the grace period if it cannot, a
    // little later, so it never races the worker's own deadline and turns a timeout into an abort.
    const timer = opts.timeoutMs !== undefined ? setTimeout(() => requestStop('timeout'), opts.timeoutMs + WORKER_DEADLINE_MARGIN_MS) : undefined;
    this.post({ type: 'exec', id, command, cwd: opts.cwd, env: opts.env, timeoutMs: opts.timeoutMs, stream: opts.onOutput !== undefined, fork });
    try {
      return await result;
    } finally {
      clearTimeout(timer);
      clearTimeout(watchdog);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  watch(listener: (paths: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.worker?.terminate();
    this.worker = undefined;
    this.failAll(new Error('The embedded runtime was disposed.'));
    this.listeners.clear();
  }

  private async mutate<M extends ForwardedMethod>(method: M, args: MethodArgs<M>, paths: string[]): Promise<MethodResult<M>> {
    try {
      return await this.call(method, args);
    } finally {
      this.rollback.markChanged(paths.map((path) => this.relative(path) ?? ''));
    }
  }

  /** `path` relative to the workdir; undefined outside it. */
  private relative(path: string): string | undefined {
    return relativeTo(this.workdir, resolvePath(this.workdir, path));
  }

  /**
   * Reads back what changed since the last command, for the rollback copy. Posted before the command, so the
   * worker copies the files before the command can touch them.
   */
  private readBackChanged(): void {
    const paths = this.rollback.takeChanged();
    if (paths.length === 0) return;
    this.rollbackReads++;
    this.request<CopiedEntry[]>((id) => this.post({ type: 'copy-entries', id, paths }))
      .then(
        (entries) => this.rollback.update(paths, entries),
        () => this.rollback.markChanged(paths),
      )
      .finally(() => this.rollbackReads--);
  }

  /**
   * After the page replaced files itself (and updated the rollback copy with them): lets the worker report those
   * changes, so they are not read back before the next command.
   */
  private async settle(): Promise<void> {
    await this.call('flushChanges', []);
    this.rollback.takeChanged();
  }

  private send(changes: WorkspaceChanges): Promise<void> {
    const packed = packFiles(changes.writeFiles);
    const { removeFiles, removeFolders, makeFolders } = changes;
    return this.request((id) => this.post({ type: 'apply-changes', id, removeFiles, removeFolders, makeFolders, ...packed }, [packed.bytes]));
  }

  /** Sends a message that is answered with a result for `id`. */
  private request<T = void>(send: (id: number) => void): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as T), reject });
      try {
        send(id);
      } catch (error) {
        this.pending.delete(id);
        reject(error);
      }
    });
  }

  private call<M extends ForwardedMethod>(method: M, args: MethodArgs<M>, fork?: number): Promise<MethodResult<M>> {
    const id = this.nextId++;
    return new Promise<MethodResult<M>>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as MethodResult<M>), reject });
      // Arguments are copied (not transferred): the caller may keep using its buffers.
      this.post({ type: 'call', id, method, args, fork } as ToWorker);
    });
  }

  private post(message: ToWorker, transfer: Transferable[] = []): void {
    if (this.disposed || !this.worker) throw new Error('The embedded runtime was disposed; create a new one to keep working.');
    this.worker.postMessage(message, transfer);
  }

  private receive(message: FromWorker): void {
    switch (message.type) {
      case 'result':
      case 'error': {
        const pending = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.type === 'result') pending?.resolve(message.value);
        else pending?.reject(new Error(message.message));
        return;
      }
      case 'output':
        this.pending.get(message.id)?.onOutput?.(message.chunk);
        return;
      case 'changes':
        if (message.fork !== undefined) return void this.forkListeners.get(message.fork)?.(message.paths);
        this.rollback.markChanged(message.paths);
        for (const listener of [...this.listeners]) listener(message.paths);
        return;
      case 'baseline-files-needed':
        void answerBaselineFiles(this.baseline, message.request, this.line);
        return;
      case 'npm-host-call':
        void answerNpmCall(this.options.npm, message.request, message.call, this.line);
        return;
      case 'git-push':
        void this.gitPushes.answer(this.options.gitPush, message.request, message.push, this.line);
        return;
      case 'git-push-stopped':
        this.gitPushes.stop(message.request);
        return;
      case 'ready':
      case 'init-failed':
        return;
      default: {
        const unknown: never = message;
        throw new Error(`Unknown message ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Last resort for a command that ignores stop requests: a fresh worker, refilled from the rollback copy. */
  private async replaceWorker(execId: number, reason: 'timeout' | 'abort', timeoutMs: number | undefined): Promise<void> {
    const stuck = this.pending.get(execId);
    if (!stuck) return;
    this.pending.delete(execId);
    // What changed before the command was copied before the command started; its copy has normally arrived by now.
    const settled = this.rollbackReads === 0;
    this.worker?.terminate();
    this.worker = undefined;
    this.failAll(new Error('The embedded runtime was restarted while this call ran (a command would not stop); try again.'));
    const note =
      '[the command did not respond to the stop request, so the embedded runtime was restarted: files are back to ' +
      `how they were before this command${settled ? '' : ' (except changes made just before it)'} and the shell is in the workdir again]`;
    try {
      await this.start(undefined);
      await this.send(this.rollback.refill());
      await this.settle();
      // Whoever keeps track of the files must look at all of them again.
      for (const listener of [...this.listeners]) listener(['']);
      if (this.baseline) this.post({ type: 'baseline', name: this.baseline.name, remoteUrl: this.baseline.remoteUrl });
      stuck.resolve({ output: appendNote(stopNote(reason, timeoutMs), note), exitCode: null });
    } catch (error) {
      stuck.resolve({ output: `${stopNote(reason, timeoutMs)}\n[the embedded runtime could not be restarted: ${String(error)}]`, exitCode: null });
    }
  }

  private failAll(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const entry of pending) entry.reject(error);
  }
}
