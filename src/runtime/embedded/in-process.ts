// The embedded runtime: just-bash over an in-memory file system, in-process. In the browser it is hosted inside a
// Web Worker (worker.ts) so a long command never freezes the page; tests use it directly in Node.
// Changes are reported to watchers before the call that made them returns (a command's as one batch), so whoever
// keeps track of changed files has them in time for a snapshot.

import { Bash, InMemoryFs } from 'just-bash';
import type { EntryType, ExecOptions, ExecResult, Runtime, ScannedEntry, ScanOptions, StagedImport, WorkspaceBaseline, WorkspaceChanges } from '../types';
import { toModelText } from '../exec/model-text';
import type { SearchRequest, SearchResult } from '../search-types';
import { MemoryTree } from './memory-tree';
import { runSearch } from '../search/run-search';
import { runSearchAsync, runtimeSearchSource } from '../search/run-search-async';
import { searchCommands } from './shell/search-commands';
import { createExecSignal } from '../exec/signal';
import { appendNote, stopNote } from '../exec/notes';
import { interruptibleLoops } from './interruptible-loops';
import { ObservedFs } from './observed-fs';
import { OutputTail } from '../exec/output-tail';
import { StagedWorkspace } from '../workspace/staged-workspace';
import { DEFAULT_WORKDIR, normalizeAbsolute, parentOf, relativeTo, resolvePath } from '../paths';
import { WatchBatcher } from '../workspace/watch-batcher';
import { lazyGitCommand } from './git/git-command';
import { PendingBaseline } from './git/pending-baseline';
import { createNodeCommand, type NodeCommand } from './node/node-command';
import { createNpmCommands, type NpmCommands } from './npm/command';
import type { NpmEnvironment } from './npm/environment';
import { applyToMemory, copyEntry, entryType, listFolder, memoryScanSource } from './memory-fs';
import { copyEntries, scanSource, type CopiedEntry } from '../workspace/scan';
import { DEFAULT_ZIP_EXCLUDE, makeExcluder, packWorkspaceZip, unpackWorkspaceZip, workspaceEntriesOf, type WorkspaceEntry, type WorkspaceFile } from '../zip/workspace-zip';

export { DEFAULT_WORKDIR };

export type EmbeddedRuntimeOptions = {
  /** Initial files: workdir-relative (or absolute) path -> content. */
  files?: Record<string, string | Uint8Array>;
  /** Absolute workspace folder; default /home/project. */
  workdir?: string;
  /** npm's registry and tarball cache; default: the public registry and a cache in memory. */
  npm?: NpmEnvironment;
};

export type EmbeddedExecOptions = ExecOptions & {
  /** Polled at every shell statement; true stops the command (the worker's cross-thread stop flag). */
  interruptRequested?: () => boolean;
};

// just-bash's default limits stop any loop after 100,000 iterations; a real build script may need more, and the
// caller's timeout is what should stop a runaway loop.
const EXECUTION_LIMITS = { maxCommandCount: 10_000_000, maxLoopIterations: 10_000_000 };

/** The embedded runtime's own surface: a Runtime whose exec also takes a cross-thread stop flag. */
export interface EmbeddedRuntime extends Runtime {
  readonly kind: 'embedded';
  exec(command: string, opts?: EmbeddedExecOptions): Promise<ExecResult>;
  realpath(path: string): Promise<string>;
  importFiles(files: WorkspaceFile[]): Promise<void>;
  beginImport(): StagedImport;
  setBaseline(baseline: WorkspaceBaseline | null): Promise<void>;
  search(request: SearchRequest): Promise<SearchResult>;
  scan(paths: string[], options?: ScanOptions): Promise<ScannedEntry[]>;
  applyChanges(changes: WorkspaceChanges): Promise<void>;
  flushChanges(): Promise<void>;
  /** Copies of everything at and below `paths` (node_modules included), read before anything else runs. */
  copyEntries(paths: string[]): Promise<CopiedEntry[]>;
}

/**
 * Creates the in-process embedded runtime with `files` written under `workdir`. It is ready at once (synchronous);
 * awaiting the result works too.
 */
export function createEmbeddedRuntime(options: EmbeddedRuntimeOptions = {}): EmbeddedRuntime {
  return new InProcessEmbeddedRuntime(options);
}

class InProcessEmbeddedRuntime implements EmbeddedRuntime {
  readonly kind = 'embedded' as const;
  readonly workdir: string;
  private readonly fs: ObservedFs;
  /**
   * The file system under `fs`, for bulk workspace replacement with its synchronous calls (changes reported by
   * hand); a committed staged import replaces it.
   */
  private memory: InMemoryFs;
  private readonly bash: Bash;
  private readonly changes = new WatchBatcher();
  /** The imported tree `git` makes the first commit of, when it first runs in a workspace without `.git`. */
  private readonly baseline = new PendingBaseline();
  private readonly node: NodeCommand = createNodeCommand();
  /** The file system's folders indexed for searches; dropped whenever anything in it changes. */
  private searchTree: MemoryTree | undefined;
  private treeVersion = 0;
  private readonly npm: NpmCommands;
  private cwd: string;
  private disposed = false;

  constructor(options: EmbeddedRuntimeOptions) {
    this.workdir = normalizeAbsolute(options.workdir ?? DEFAULT_WORKDIR);
    this.cwd = this.workdir;
    const memory = new InMemoryFs();
    this.memory = memory;
    memory.mkdirSync(this.workdir, { recursive: true });
    for (const [path, content] of Object.entries(options.files ?? {})) {
      memory.writeFileSync(resolvePath(this.workdir, path), content);
    }
    this.fs = new ObservedFs(memory, (paths) => this.recordChanges(paths));
    const loops = interruptibleLoops();
    this.npm = createNpmCommands(options.npm);
    this.bash = new Bash({
      fs: this.fs,
      cwd: this.workdir,
      env: { HOME: this.workdir, USER: 'user', LANG: 'C.UTF-8' },
      executionLimits: EXECUTION_LIMITS,
      customCommands: [
        loops.command,
        lazyGitCommand({ workdir: this.workdir, baseline: this.baseline }),
        this.npm.beforeUse(this.node.command),
        ...this.npm.commands,
        ...searchCommands(() => this.indexedTree()),
      ],
    });
    this.bash.registerTransformPlugin(loops.plugin);
  }

  // ---- files ----

  async readFile(path: string): Promise<Uint8Array> {
    const absolute = this.resolve(path);
    const type = await this.typeOf(absolute, true);
    if (type === undefined) throw notFound(path, absolute);
    if (type === 'dir') throw new Error(`EISDIR: ${describe(path, absolute)} is a directory, not a file. List it with ls instead.`);
    return this.fs.readFileBuffer(absolute);
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    const absolute = this.resolve(path);
    if ((await this.typeOf(absolute, true)) === 'dir') {
      throw new Error(`EISDIR: ${describe(path, absolute)} is a directory; choose a file path to write.`);
    }
    await this.ensureDir(parentOf(absolute), path);
    await this.fs.writeFile(absolute, data);
    this.changes.flush();
  }

  async readdir(path: string): Promise<{ name: string; type: EntryType }[]> {
    const absolute = this.resolve(path);
    const type = await this.typeOf(absolute, true);
    if (type === undefined) throw notFound(path, absolute);
    if (type !== 'dir') throw new Error(`ENOTDIR: ${describe(path, absolute)} is not a directory.`);
    return this.listDir(absolute);
  }

  async stat(path: string): Promise<{ type: EntryType; size: number } | null> {
    const absolute = this.resolve(path);
    const linkType = await this.typeOf(absolute, false);
    if (linkType === undefined) return null;
    try {
      const target = await this.fs.stat(absolute);
      return { type: target.isDirectory ? 'dir' : 'file', size: target.isDirectory ? 0 : target.size };
    } catch {
      return { type: 'symlink', size: 0 }; // a dangling link: it exists, but points nowhere
    }
  }

  async mkdir(path: string): Promise<void> {
    const absolute = this.resolve(path);
    await this.ensureDir(absolute, path);
    this.changes.flush();
  }

  async rm(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    const absolute = this.resolve(path);
    if (absolute === '/' || absolute === this.workdir) {
      throw new Error(`Refusing to remove ${absolute}: it is the workspace root. Remove the entries inside it instead.`);
    }
    const type = await this.typeOf(absolute, false);
    if (type === undefined) throw notFound(path, absolute);
    if (type === 'dir' && !opts.recursive && (await this.fs.readdir(absolute)).length > 0) {
      throw new Error(`ENOTEMPTY: ${describe(path, absolute)} is a non-empty directory; pass recursive to remove it.`);
    }
    await this.fs.rm(absolute, { recursive: type === 'dir', force: false });
    this.changes.flush();
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    if ((await this.typeOf(source, false)) === undefined) throw notFound(from, source);
    await this.ensureDir(parentOf(target), to);
    await this.fs.mv(source, target);
    this.changes.flush();
  }

  async realpath(path: string): Promise<string> {
    const absolute = this.resolve(path);
    try {
      return await this.fs.realpath(absolute);
    } catch {
      return absolute; // a path that does not exist yet is its own canonical form
    }
  }

  // ---- search ----

  /** Walks and matches over the in-memory file system itself, in one synchronous pass. */
  async search(request: SearchRequest): Promise<SearchResult> {
    const absolute = { ...request, path: this.resolve(request.path) };
    const tree = await this.indexedTree();
    return tree ? runSearch(absolute, tree) : runSearchAsync(absolute, runtimeSearchSource(this));
  }

  private async indexedTree(): Promise<MemoryTree | null> {
    if (this.searchTree) return this.searchTree;
    const version = this.treeVersion;
    const tree = await MemoryTree.over(this.memory);
    if (tree && version === this.treeVersion) this.searchTree = tree;
    return tree;
  }

  private treeChanged(): void {
    this.treeVersion++;
    this.searchTree = undefined;
  }

  // ---- commands ----

  async exec(command: string, opts: EmbeddedExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    const explicitCwd = opts.cwd !== undefined ? this.resolve(opts.cwd) : undefined;
    let startDir = explicitCwd ?? this.cwd;
    let preface = '';
    if ((await this.typeOf(startDir, true)) !== 'dir') {
      if (explicitCwd !== undefined) {
        return { output: `cwd ${explicitCwd} does not exist or is not a directory.`, exitCode: 1 };
      }
      preface = `[the previous working directory ${startDir} no longer exists; running in ${this.workdir}]\n`;
      startDir = this.cwd = this.workdir;
    }

    const stopper = createExecSignal({
      external: opts.signal,
      timeoutMs: opts.timeoutMs,
      interruptRequested: opts.interruptRequested,
    });
    try {
      // `exec 2>&1` first makes just-bash write stdout and stderr into one stream, in the order they happen. The
      // group keeps what was printed before a timeout or abort (just-bash drops a bare script's output then). Both
      // on the command's first line so parse errors keep the model's line numbers.
      const result = await this.changes.holdDuring(() =>
        this.bash.exec(`exec 2>&1; { ${command}\n}`, { cwd: startDir, env: opts.env, signal: stopper.signal, rawScript: true }),
      );
      const reason = stopper.stopReason();
      let output = preface + toModelText(result.stdout + result.stderr);
      if (reason !== undefined) {
        output = appendNote(output.replace(/bash: execution aborted\n?$/, ''), stopNote(reason, opts.timeoutMs));
      }
      // A real shell session keeps its directory; just-bash resets it per call, so carry it over ourselves.
      // After `exit` just-bash returns its starting environment, recognisable by the missing `?`; the directory
      // then stays where it was.
      const finalEnv = result.env;
      const finished = finalEnv !== undefined && '?' in finalEnv && typeof finalEnv.PWD === 'string';
      if (explicitCwd === undefined && reason === undefined && finished) this.cwd = normalizeAbsolute(finalEnv.PWD);
      if (output !== '') opts.onOutput?.(output);
      const tail = new OutputTail();
      tail.push(output);
      return { output: tail.text(), exitCode: reason === undefined ? result.exitCode : null };
    } finally {
      stopper.dispose();
      // The command's changes go out before its result, so whoever keeps track of changed files has them by then.
      this.changes.flush();
    }
  }

  // ---- snapshots ----

  async exportZip(opts: { exclude?: string[] } = {}): Promise<Uint8Array> {
    const excluded = makeExcluder(opts.exclude ?? DEFAULT_ZIP_EXCLUDE);
    const entries: WorkspaceEntry[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await this.listDir(dir)) {
        const absolute = `${dir === '/' ? '' : dir}/${entry.name}`;
        const relative = relativeTo(this.workdir, absolute) ?? entry.name;
        if (excluded(relative)) continue;
        const type = entry.type === 'symlink' ? (await this.stat(absolute))?.type : entry.type;
        if (type === 'dir' && entry.type === 'dir') {
          entries.push({ path: relative, kind: 'dir' });
          await walk(absolute);
        } else if (type === 'file') {
          // A symlink to a file is stored as the file's content; links to folders are skipped (they may loop).
          entries.push({ path: relative, kind: 'file', data: await this.fs.readFileBuffer(absolute) });
        }
      }
    };
    await walk(this.workdir);
    return packWorkspaceZip(entries);
  }

  /** Replaces the whole workspace with the zip's contents (replace, not merge). */
  async importZip(zip: Uint8Array): Promise<void> {
    this.assertLive();
    await this.replaceWorkspace(unpackWorkspaceZip(zip)); // validated before anything is deleted
    this.npm.restored(); // snapshots leave node_modules out: the first command that needs it reinstalls it
  }

  /** Replaces the whole workspace with `files` (replace, not merge); folders are created for their parents. */
  async importFiles(files: WorkspaceFile[]): Promise<void> {
    this.assertLive();
    await this.replaceWorkspace(workspaceEntriesOf(files)); // validated before anything is deleted
  }

  /**
   * Starts a workspace replacement whose files are written into a fresh file system as they arrive; commit swaps
   * it in (the files outside the workdir, such as /tmp and the shell's own, are carried over), discard drops it.
   */
  beginImport(): StagedImport {
    this.assertLive();
    const stage = new StagedWorkspace(this.workdir);
    return {
      add: (files) => stage.add(files),
      commit: async () => {
        this.assertLive();
        const { memory, paths } = stage.finish(); // throws the first bad file: the workspace is untouched
        await this.swapInWorkspace(memory, paths);
      },
      discard: () => stage.drop(),
    };
  }

  private async swapInWorkspace(next: InMemoryFs, paths: string[]): Promise<void> {
    const previous = this.memory;
    const prefix = `${this.workdir}/`;
    const removed: string[] = [];
    for (const path of previous.getAllPaths()) {
      if (path.startsWith(prefix)) removed.push(path.slice(prefix.length));
      else if (path !== this.workdir && !this.workdir.startsWith(`${path === '/' ? '' : path}/`)) {
        await copyEntry(previous, next, path);
      }
    }
    this.memory = next;
    this.fs.inner = next;
    this.treeChanged();
    this.changes.add(removed);
    this.changes.add(paths);
    this.changes.flush();
    this.cwd = this.workdir;
    this.baseline.rearm();
  }

  // A repo import writes tens of thousands of files: they go straight into the in-memory fs with its synchronous
  // calls, and the watchers hear about them in one batch.
  private async replaceWorkspace(entries: WorkspaceEntry[]): Promise<void> {
    this.treeChanged();
    const removed = await this.clearWorkspace();
    for (const entry of entries) {
      const absolute = `${this.workdir}/${entry.path}`;
      if (entry.kind === 'dir') this.memory.mkdirSync(absolute, { recursive: true });
      else this.memory.writeFileSync(absolute, entry.data);
    }
    this.treeChanged();
    const prefixLength = this.workdir.length + 1;
    this.changes.add(removed.map((path) => path.slice(prefixLength)));
    this.changes.add(entries.map((entry) => entry.path));
    this.changes.flush();
    this.cwd = this.workdir;
    this.baseline.rearm();
  }

  /** Empties the workdir; returns the absolute paths removed. */
  private async clearWorkspace(): Promise<string[]> {
    const prefix = `${this.workdir}/`;
    const paths = this.memory.getAllPaths().filter((path) => path.startsWith(prefix));
    const parents = new Set(paths.map(parentOf));
    // Leaves first (files, links, empty folders: each removal is a lookup), then the folders deepest first, when
    // the listing each folder removal does has little left to scan.
    for (const path of paths) if (!parents.has(path)) await this.memory.rm(path, { force: true });
    const folders = paths.filter((path) => parents.has(path)).sort((a, b) => b.length - a.length);
    for (const folder of folders) await this.memory.rm(folder, { recursive: true, force: true });
    return paths;
  }

  async setBaseline(baseline: WorkspaceBaseline | null): Promise<void> {
    this.assertLive();
    this.baseline.set(baseline);
  }

  /** Hashes the files where they are; the bytes handed back (withData) are copies. */
  scan(paths: string[], options: ScanOptions = {}): Promise<ScannedEntry[]> {
    this.assertLive();
    const relative = paths.map((path) => this.inside(path, 'scan'));
    return scanSource(memoryScanSource(this.fs, this.workdir), relative, options, true);
  }

  copyEntries(paths: string[]): Promise<CopiedEntry[]> {
    this.assertLive();
    return copyEntries(memoryScanSource(this.fs, this.workdir), paths.map((path) => this.inside(path, 'copy')));
  }

  /** Removals, folders and writes straight into the in-memory fs (checked first), reported to the watchers as one batch. */
  async applyChanges(changes: WorkspaceChanges): Promise<void> {
    this.assertLive();
    const absolute = (path: string) => `${this.workdir}/${this.inside(path, 'change')}`;
    const resolved: WorkspaceChanges = {
      removeFiles: changes.removeFiles.map(absolute),
      removeFolders: changes.removeFolders.map(absolute),
      makeFolders: changes.makeFolders.map(absolute),
      writeFiles: changes.writeFiles.map((file) => ({ path: absolute(file.path), data: file.data })),
    };
    this.recordChanges(await applyToMemory(this.memory, this.fs, this.workdir, resolved));
    this.changes.flush();
    this.npm.restored(); // a restore writes what differs; a node_modules it never had is reinstalled on first need
  }

  async flushChanges(): Promise<void> {
    this.changes.flush();
  }

  watch(listener: (paths: string[]) => void): () => void {
    return this.changes.subscribe(listener);
  }

  async dispose(): Promise<void> {
    this.changes.flush();
    this.changes.dispose();
    this.node.dispose();
    this.disposed = true;
  }

  // ---- helpers ----

  /** `path` (workdir-relative or absolute) as a workdir-relative path; throws when it lies outside the workdir. */
  private inside(path: string, what: string): string {
    const relative = relativeTo(this.workdir, this.resolve(path));
    if (relative === undefined) throw new Error(`Cannot ${what} ${path}: it lies outside the workspace ${this.workdir}.`);
    return relative;
  }

  private resolve(path: string): string {
    this.assertLive();
    return resolvePath(this.workdir, path);
  }

  private assertLive(): void {
    if (this.disposed) throw new Error('This runtime was disposed; create a new one to keep working.');
  }

  private recordChanges(absolutePaths: string[]): void {
    this.treeChanged();
    const relative: string[] = [];
    for (const absolute of absolutePaths) {
      const path = relativeTo(this.workdir, normalizeAbsolute(absolute));
      if (path) relative.push(path);
    }
    this.changes.add(relative);
  }

  /** The entry's type, or undefined when missing; `follow` resolves symlinks like stat(2). */
  private typeOf(absolute: string, follow: boolean): Promise<EntryType | undefined> {
    return entryType(this.fs, absolute, follow);
  }

  private listDir(absolute: string): Promise<{ name: string; type: EntryType }[]> {
    return listFolder(this.fs, absolute);
  }

  /** mkdir -p that refuses to treat a file as a folder (the in-memory fs would silently allow it). */
  private async ensureDir(absolute: string, asGiven: string): Promise<void> {
    let current = '';
    for (const segment of absolute.split('/').filter(Boolean)) {
      current += `/${segment}`;
      const type = await this.typeOf(current, true);
      if (type === 'dir') continue;
      if (type !== undefined) {
        throw new Error(`ENOTDIR: cannot create ${asGiven}: ${current} is a file, not a directory.`);
      }
      await this.fs.mkdir(current, { recursive: true });
    }
  }
}

function describe(given: string, absolute: string): string {
  return given === absolute ? absolute : `${given} (${absolute})`;
}

function notFound(given: string, absolute: string): Error {
  return new Error(`ENOENT: no such file or directory: ${describe(given, absolute)}`);
}
