// A fork of the embedded runtime hosted in the Web Worker (client.ts), as the page sees it: the fork lives in the
// worker beside the live files, and every request names it by number. Its changes go to its own watchers, never to
// the live runtime's or its rollback copy. A worker restarted after a stuck command has lost its forks: their calls
// then fail saying so. A fork takes the parent's git baseline as it is when forked, and offers no staged import.

import type { ExecOptions, ExecResult, ForkChange, ForkOptions, Runtime, RuntimeFork, ScannedEntry, ScanOptions, WorkspaceChanges } from '../../types';
import type { ForwardedMethod, MethodArgs, MethodResult, ToWorker } from '../protocol';
import { packFiles } from '../packed-files';

/** What a fork needs of the page's client: its requests, its commands, and its own change listeners. */
export interface ForkLine {
  readonly workdir: string;
  call<M extends ForwardedMethod>(method: M, args: MethodArgs<M>, fork: number): Promise<MethodResult<M>>;
  exec(command: string, opts: ExecOptions, fork: number): Promise<ExecResult>;
  request<T = void>(send: (id: number) => void): Promise<T>;
  post(message: ToWorker, transfer?: Transferable[]): void;
  /** A number for the fork, unique among the client's requests. */
  nextNumber(): number;
  listen(fork: number, listener: ((paths: string[]) => void) | undefined): void;
}

/** Makes a fork in the worker and returns it. */
export async function openWorkerFork(line: ForkLine, options: ForkOptions = {}): Promise<RuntimeFork> {
  const fork = line.nextNumber();
  await line.request((id) => line.post({ type: 'fork', id, fork, cwd: options.cwd, env: options.env }));
  const runtime = new WorkerForkRuntime(line, fork);
  return {
    runtime,
    changes: () => line.request<ForkChange[]>((id) => line.post({ type: 'fork-changes', id, fork })),
    dispose: () => runtime.dispose(),
  };
}

class WorkerForkRuntime implements Runtime {
  readonly kind = 'embedded' as const;
  readonly workdir: string;
  private readonly listeners = new Set<(paths: string[]) => void>();
  private disposed = false;

  constructor(
    private readonly line: ForkLine,
    private readonly number: number,
  ) {
    this.workdir = line.workdir;
    line.listen(number, (paths) => {
      for (const listener of [...this.listeners]) listener(paths);
    });
  }

  readFile = (...args: MethodArgs<'readFile'>) => this.call('readFile', args);
  writeFile = (...args: MethodArgs<'writeFile'>) => this.call('writeFile', args);
  readdir = (...args: MethodArgs<'readdir'>) => this.call('readdir', args);
  stat = (...args: MethodArgs<'stat'>) => this.call('stat', args);
  mkdir = (...args: MethodArgs<'mkdir'>) => this.call('mkdir', args);
  rm = (...args: MethodArgs<'rm'>) => this.call('rm', args);
  rename = (...args: MethodArgs<'rename'>) => this.call('rename', args);
  realpath = (...args: MethodArgs<'realpath'>) => this.call('realpath', args);
  exportZip = (...args: MethodArgs<'exportZip'>) => this.call('exportZip', args);
  importZip = (...args: MethodArgs<'importZip'>) => this.call('importZip', args);
  importFiles = (...args: MethodArgs<'importFiles'>) => this.call('importFiles', args);
  search = (...args: MethodArgs<'search'>) => this.call('search', args);
  scan = (paths: string[], options?: ScanOptions): Promise<ScannedEntry[]> => this.call('scan', [paths, options]);
  flushChanges = (): Promise<void> => this.call('flushChanges', []);

  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    return this.line.exec(command, opts, this.number);
  }

  async applyChanges(changes: WorkspaceChanges): Promise<void> {
    this.assertLive();
    const packed = packFiles(changes.writeFiles);
    const { removeFiles, removeFolders, makeFolders } = changes;
    return this.line.request((id) =>
      this.line.post({ type: 'apply-changes', id, removeFiles, removeFolders, makeFolders, ...packed, fork: this.number }, [packed.bytes]),
    );
  }

  watch(listener: (paths: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.listeners.clear();
    this.line.listen(this.number, undefined);
    await this.line.request((id) => this.line.post({ type: 'fork-dispose', id, fork: this.number })).catch(() => undefined); // a restarted worker has none
  }

  private async call<M extends ForwardedMethod>(method: M, args: MethodArgs<M>): Promise<MethodResult<M>> {
    this.assertLive();
    return this.line.call(method, args, this.number);
  }

  private assertLive(): void {
    if (this.disposed) throw new Error('This fork was disposed; fork the workspace again to keep working.');
  }
}
