// The one identity of a sandbox above its runtime. Everyone who touches workspace files (the agent's tools, the
// Files editor, the terminal, import, restore, persistence) holds the Workspace, never a runtime of their own, so:
// - the live Runtime can be swapped underneath (WebContainer taking over from the embedded runtime) while everyone
//   above keeps the same object; calls made before a runtime is attached wait for it;
// - there is exactly one per-file mutation queue, keyed by the symlink-resolved path, for every writer;
// - watchers registered once keep hearing changes across a swap;
// - it keeps the paths changed since a snapshot last took them (its own writes and everything the runtime's watch
//   reports), so a snapshot reads what changed rather than the whole workspace;
// - paths are resolved, shown and compared by one set of rules (./paths.ts).
// The Workspace is itself a Runtime (forwarding to the live one), so code written against Runtime takes it as is.

import { ChangedPathSet, type ChangedPaths } from './changed-paths';
import { createMutationQueue, type MutationQueue } from './mutation-queue';
import { DEFAULT_WORKDIR, displayPath, joinPath, parentOf, relativeTo, resolvePath } from '../paths';
import type { SearchRequest, SearchResult } from '../search-types';
import { applyToRuntime, scanRuntime } from './fallbacks';
import type { EntryType, ExecOptions, ExecResult, ForkChange, ForkOptions, Runtime, RuntimeFork, ScannedEntry, ScanOptions, StagedImport, WorkspaceBaseline, WorkspaceChanges, WorkspaceFile } from '../types';

export type WorkspaceIdentity = Pick<Runtime, 'kind' | 'workdir'>;

/** A copy-on-write fork of a workspace (Workspace.fork): a Workspace of its own over the fork's runtime. */
export interface WorkspaceFork extends RuntimeFork {
  readonly workspace: Workspace;
  /** The same Workspace, so a WorkspaceFork is also a RuntimeFork. */
  readonly runtime: Workspace;
  changes(): Promise<ForkChange[]>;
  /** Drops the fork: its workspace and runtime are disposed. */
  dispose(): Promise<void>;
}

type ChangeListener = (paths: string[]) => void;

// Both runtimes work in /home/project; a workspace reports this until a runtime is attached.
const EXPECTED: WorkspaceIdentity = { kind: 'embedded', workdir: DEFAULT_WORKDIR };

// The workspace a runtime belongs to, so code handed a bare runtime still reaches the one queue of its sandbox.
const workspaceOfRuntime = new WeakMap<Runtime, Workspace>();

/** A sandbox's files and commands, whichever runtime currently serves them. */
export class Workspace implements Runtime {
  /** The per-file queue every writer of this sandbox's files goes through. */
  readonly queue: MutationQueue = createMutationQueue();

  private readonly expected: WorkspaceIdentity;
  private live: Runtime | null = null;
  private failure: Error | null = null;
  private waiters: { resolve(runtime: Runtime): void; reject(error: Error): void }[] = [];
  /** Settles when the current exclusive job (a whole-workspace replacement) is done; calls wait behind it. */
  private gate: Promise<void> = Promise.resolve();
  private exclusiveJobs = 0;
  private readonly listeners = new Set<ChangeListener>();
  private stopWatching: (() => void) | null = null;
  private baseline: WorkspaceBaseline | null = null;
  private readonly changed = new ChangedPathSet();

  constructor(expected: WorkspaceIdentity = EXPECTED) {
    this.expected = expected;
  }

  /** The one workspace serving `runtime`: the workspace itself, the one it is attached to, or a new one around it. */
  static of(runtime: Runtime): Workspace {
    if (runtime instanceof Workspace) return runtime;
    let workspace = workspaceOfRuntime.get(runtime);
    if (!workspace) {
      workspace = new Workspace(runtime);
      workspace.attach(runtime);
    }
    return workspace;
  }

  get kind(): Runtime['kind'] {
    return (this.live ?? this.expected).kind;
  }

  get workdir(): string {
    return (this.live ?? this.expected).workdir;
  }

  /** The runtime serving the workspace now; null until one is attached. */
  get current(): Runtime | null {
    return this.live;
  }

  // ---- the live runtime ----

  /** Makes `runtime` serve the workspace: calls waiting so far go to it; watchers move over from the previous one. */
  attach(runtime: Runtime): void {
    if (runtime === this.live) return;
    if (this.live && workspaceOfRuntime.get(this.live) === this) workspaceOfRuntime.delete(this.live);
    this.live = runtime;
    this.failure = null;
    workspaceOfRuntime.set(runtime, this);
    this.stopWatching?.();
    this.stopWatching = null;
    // Another runtime's files are not known until they have been looked at.
    this.changed.everything();
    this.subscribe();
    if (this.baseline) void runtime.setBaseline?.(this.baseline).catch(() => undefined); // git then starts from it
    for (const waiter of this.waiters.splice(0)) waiter.resolve(runtime);
  }

  /** No runtime can serve the workspace (the sandbox could not start): waiting and later calls fail with `error`. */
  fail(error: Error): void {
    if (this.live) return;
    this.failure = error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(error);
  }

  /** The live runtime once there is one; rejects with the reason when none could start. */
  whenReady(): Promise<Runtime> {
    if (this.live) return Promise.resolve(this.live);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /**
   * Runs `job` on the live runtime while every other call through this workspace waits (a restore or import
   * replacing the files as a whole). `job` must use the runtime it is given: a call through the workspace from
   * inside it would wait for the job itself.
   */
  exclusive<T>(job: (runtime: Runtime) => Promise<T>): Promise<T> {
    this.exclusiveJobs++;
    const run = this.gate.then(() => this.whenReady()).then(job);
    this.gate = run.then(
      () => undefined,
      () => undefined,
    );
    void this.gate.then(() => this.exclusiveJobs--);
    return run;
  }

  // ---- forks ----

  /** True when the live runtime can fork its files (the embedded one can; WebContainer cannot). */
  get canFork(): boolean {
    return typeof this.live?.fork === 'function';
  }

  /**
   * A copy-on-write fork of the workspace as it is now (a worker subagent's tree): its own Workspace, whose writes
   * the live workspace never sees, nor it the live one's. Rejects when the runtime cannot fork (see canFork).
   */
  fork = async (options?: ForkOptions): Promise<WorkspaceFork> => {
    const rt = await this.ready();
    if (!rt.fork) throw new Error(`The ${rt.kind} runtime cannot fork the workspace; run the work on the live workspace instead.`);
    const fork = await rt.fork(options);
    const workspace = new Workspace(fork.runtime);
    workspace.attach(fork.runtime);
    return {
      workspace,
      runtime: workspace,
      changes: () => fork.changes(),
      dispose: async () => {
        await workspace.dispose();
        await fork.dispose();
      },
    };
  };

  // ---- paths ----

  /** The absolute, normalized form of a path given relative to the workdir or absolute (surrounding blanks ignored). */
  resolve(path: string): string {
    const trimmed = path.trim();
    return resolvePath(this.workdir, trimmed === '' ? '.' : trimmed);
  }

  /** `absolute` relative to the workdir ('' for the workdir itself); undefined outside it. */
  relative(absolute: string): string | undefined {
    return relativeTo(this.workdir, absolute);
  }

  /** How a person or the model should see `absolute`: workdir-relative inside it, absolute outside. */
  display(absolute: string): string {
    return displayPath(this.workdir, absolute);
  }

  /**
   * The symlink-resolved form of `path` (for a file not created yet: its resolved folder plus its name). Writers
   * queue under it and write to it, so a link and its target share one queue and writing through a link changes
   * the target rather than replacing the link.
   */
  async canonical(path: string): Promise<string> {
    const absolute = this.resolve(path);
    try {
      return await this.realpath(absolute);
    } catch {
      try {
        return joinPath(await this.realpath(parentOf(absolute)), absolute.slice(absolute.lastIndexOf('/') + 1));
      } catch {
        return absolute;
      }
    }
  }

  /**
   * Runs a read-modify-write of one file in the file's turn of the queue: `job` gets the canonical path and the
   * live runtime to use for it (calls through the workspace itself would queue behind the job).
   */
  async mutate<T>(path: string, job: (target: string, runtime: Runtime) => Promise<T>): Promise<T> {
    const target = await this.canonical(path);
    return this.queue.run(target, async () => {
      try {
        return await job(target, await this.ready());
      } finally {
        // After the write, so a snapshot that read the file meanwhile reads it again.
        this.noteChanged([target]);
      }
    });
  }

  // ---- what changed ----

  /** The paths changed since the last take (or everything), and a fresh set for the changes after it. */
  takeChanges(): ChangedPaths {
    const taken = this.changed.take();
    return this.stopWatching ? taken : { all: true }; // without a watch, nothing says what changed
  }

  /** Gives back taken changes that could not be saved; the next take includes them. */
  restoreChanges(taken: ChangedPaths): void {
    this.changed.restore(taken);
  }

  /** Changes inside folders with these names are not kept (what snapshots leave out); they still reach watchers. */
  ignoreChangesIn(names: readonly string[]): void {
    this.changed.ignoreNames(names);
  }

  /** True when nothing changed since the last take. */
  get unchanged(): boolean {
    return this.changed.empty;
  }

  /** Notes changes made behind the workspace's back (absolute or workdir-relative paths). */
  noteChanged(paths: string[]): void {
    const relative: string[] = [];
    for (const path of paths) {
      const inside = this.relative(this.resolve(path));
      if (inside !== undefined) relative.push(inside);
    }
    this.changed.add(relative);
  }

  /**
   * Lets the live runtime report every change made so far, when it can; true when it could, so that the changed
   * paths are complete once this resolves.
   */
  async settleChanges(): Promise<boolean> {
    const rt = await this.ready();
    if (!rt.flushChanges) return false;
    await rt.flushChanges();
    return true;
  }

  /**
   * Runtime.scan on the live runtime, or the same walk through its ordinary methods. Asked of the runtime at once
   * when nothing holds the workspace, so it reads before anything asked for later.
   */
  scan = async (paths: string[], options?: ScanOptions): Promise<ScannedEntry[]> =>
    scanRuntime(this.live && this.exclusiveJobs === 0 ? this.live : await this.ready(), paths, options);

  /** Runtime.applyChanges on the live runtime, or the same changes one call at a time. */
  applyChanges = async (changes: WorkspaceChanges): Promise<void> => {
    try {
      await applyToRuntime(await this.ready(), changes);
    } finally {
      this.noteChanged([...changes.removeFiles, ...changes.removeFolders, ...changes.makeFolders, ...changes.writeFiles.map((f) => f.path)]);
    }
  };

  // ---- Runtime, forwarded to the live runtime ----

  readFile = async (path: string): Promise<Uint8Array> => (await this.ready()).readFile(path);
  /** Queued with every other write of the same file. */
  writeFile = (path: string, data: Uint8Array | string): Promise<void> => this.mutate(path, (target, rt) => rt.writeFile(target, data));
  readdir = async (path: string): Promise<{ name: string; type: EntryType }[]> => (await this.ready()).readdir(path);
  stat = async (path: string) => (await this.ready()).stat(path);
  mkdir = (path: string): Promise<void> => this.changing([path], async (rt) => rt.mkdir(path));
  rm = (path: string, opts?: { recursive?: boolean }): Promise<void> => this.changing([path], async (rt) => rt.rm(path, opts));
  rename = (from: string, to: string): Promise<void> => this.changing([from, to], async (rt) => rt.rename(from, to));
  exec = async (command: string, opts?: ExecOptions): Promise<ExecResult> => (await this.ready()).exec(command, opts);
  exportZip = async (opts?: { exclude?: string[] }): Promise<Uint8Array> => (await this.ready()).exportZip(opts);
  importZip = (zip: Uint8Array): Promise<void> => this.changing([''], async (rt) => rt.importZip(zip));
  importFiles = (files: { path: string; data: Uint8Array }[]): Promise<void> =>
    this.changing([''], async (rt) => (rt.importFiles ? rt.importFiles(files) : rt.importZip((await import('../zip/stored-zip')).writeStoredZip(files))));
  realpath = async (path: string): Promise<string> => {
    const rt = await this.ready();
    return rt.realpath ? rt.realpath(path) : this.resolve(path);
  };
  /** Searches where the files are when the live runtime can; otherwise walks it through its file methods. */
  search = async (request: SearchRequest): Promise<SearchResult> => {
    const rt = await this.ready();
    if (rt.search) return rt.search(request);
    // The walk (with its glob and ignore-file matching) loads only for a runtime that cannot search itself.
    const { runSearchAsync, runtimeSearchSource } = await import('../search/run-search-async');
    return runSearchAsync({ ...request, path: resolvePath(rt.workdir, request.path) }, runtimeSearchSource(rt));
  };
  /** Places read-only files outside the workdir (Runtime.placeReadOnly); rejects when the live runtime cannot. */
  placeReadOnly = async (root: string, files: WorkspaceFile[]): Promise<void> => {
    const rt = await this.ready();
    if (!rt.placeReadOnly) throw new Error(`The ${rt.kind} runtime cannot hold files outside the workspace, so ${root} is not there.`);
    await rt.placeReadOnly(root, files);
  };
  /** Tells the live runtime (when it has git) which tree the workspace was imported from; a runtime that takes over is told too. */
  setBaseline = async (baseline: WorkspaceBaseline | null): Promise<void> => {
    this.baseline = baseline;
    await (await this.ready()).setBaseline?.(baseline);
  };

  beginImport(): StagedImport {
    const rt = this.live;
    return rt?.beginImport ? rt.beginImport() : collectImport(this);
  }

  /** Listens to file changes of whichever runtime serves the workspace, across swaps. */
  watch(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Stops listening to the runtime; the runtime itself belongs to whoever attached it. */
  async dispose(): Promise<void> {
    this.listeners.clear();
    this.stopWatching?.();
    this.stopWatching = null;
  }

  /** Runs a change on the live runtime and notes `paths` as changed once it is done. */
  private async changing(paths: string[], change: (runtime: Runtime) => Promise<void>): Promise<void> {
    try {
      await change(await this.ready());
    } finally {
      this.noteChanged(paths);
    }
  }

  /** The live runtime once it is attached and no whole-workspace replacement is running. */
  private async ready(): Promise<Runtime> {
    let gate: Promise<void>;
    do {
      gate = this.gate;
      await gate;
    } while (gate !== this.gate);
    return this.whenReady();
  }

  /** Follows the live runtime's changes for as long as it serves: the changed paths, and the watchers. */
  private subscribe(): void {
    const runtime = this.live;
    // A stand-in that cannot watch (a test's stub) leaves the changed paths untrusted: snapshots compare everything.
    if (!runtime || this.stopWatching || typeof runtime.watch !== 'function') return;
    this.stopWatching = runtime.watch((paths) => {
      if (this.live !== runtime) return; // a late batch from a runtime swapped out
      this.changed.add(paths);
      for (const listener of [...this.listeners]) listener(paths);
    });
  }
}

/**
 * A staged import for a runtime that cannot stage (or is not attached yet): the files are only collected, and commit
 * imports them all at once.
 */
function collectImport(workspace: Workspace): StagedImport {
  let files: { path: string; data: Uint8Array }[] | undefined = [];
  return {
    add(batch) {
      files?.push(...batch);
    },
    commit() {
      const all = files;
      files = undefined;
      if (!all) return Promise.reject(new Error('This import was already committed or discarded; start the import again.'));
      return workspace.importFiles(all);
    },
    discard() {
      files = undefined;
    },
  };
}
