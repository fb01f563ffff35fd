// The embedded runtime: just-bash over an in-memory file system, in-process. In the browser it is hosted inside a
// Web Worker (worker.ts) so a long command never freezes the page; tests use it directly in Node.
// Changes are reported to watchers before the call that made them returns (a command's as one batch), so whoever
// keeps track of changed files has them in time for a snapshot.

import { InMemoryFs } from 'just-bash';
import type { EntryType, ExecResult, ForkOptions, ScannedEntry, ScanOptions, StagedImport, WorkspaceBaseline, WorkspaceChanges } from '../types';
import type { EmbeddedRuntime, EmbeddedRuntimeFork, EmbeddedRuntimeOptions } from './embedded-runtime';
import type { SearchRequest, SearchResult } from '../search-types';
import { runSearch } from '../search/run-search';
import { runSearchAsync, runtimeSearchSource } from '../search/run-search-async';
import { searchCommands } from './shell/search-commands';
import { BashSession, type EmbeddedExecOptions } from './bash-session';
import { SearchIndex } from './search-index';
import { MemoryStat } from './memory-stat';
import { ObservedFs } from './observed-fs';
import { StagedWorkspace } from '../workspace/staged-workspace';
import { DEFAULT_WORKDIR, normalizeAbsolute, parentOf, relativeTo, resolvePath } from '../paths';
import { WatchBatcher } from '../workspace/watch-batcher';
import { lazyGitCommand } from './git/git-command';
import { PendingBaseline } from './git/pending-baseline';
import { createNodeCommand, type NodeCommand } from './node/node-command';
import { NodeEngineChoice } from './node/engine-choice';
import { createNpmCommands, type NpmCommands } from './npm/command';
import { applyToMemory, entryType, exportMemoryZip, listFolder, memoryScanSource } from './memory-fs';
import { detachEntry, forkMemory, makeForkable } from './fork/memory-fork';
import { carryOverOutside, replaceWorkdir } from './workspace-replacement';
import { ReadOnlyPlaces } from './read-only-places';
import { copyEntries, scanSource, type CopiedEntry } from '../workspace/scan';
import { DEFAULT_ZIP_EXCLUDE, unpackWorkspaceZip, workspaceEntriesOf, type WorkspaceEntry, type WorkspaceFile } from '../zip/workspace-zip';

export { DEFAULT_WORKDIR };
export type { EmbeddedExecOptions, EmbeddedRuntime, EmbeddedRuntimeFork, EmbeddedRuntimeOptions };

/** What a fork's runtime starts from: the fork's file system and the parent's shell and places. */
type ForkedFrom = { memory: InMemoryFs; cwd: string; env?: Record<string, string>; readOnly: ReadOnlyPlaces; baseline: PendingBaseline; stats: MemoryStat; engines: NodeEngineChoice };

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
  private readonly shell: BashSession;
  private readonly changes = new WatchBatcher();
  /** The imported tree `git` makes the first commit of, when it first runs in a workspace without `.git`. */
  private readonly baseline: PendingBaseline;
  /** Stat data of the files for git's index, without an await (shares its tokens with the forks). */
  private readonly stats: MemoryStat;
  private readonly node: NodeCommand;
  private readonly searchIndex = new SearchIndex(() => this.memory);
  private readonly npm: NpmCommands;
  private readonly readOnly: ReadOnlyPlaces;
  private disposed = false;
  /** Which engine `node` runs on, shared with the forks. */
  readonly engines: NodeEngineChoice;

  /** A runtime with `options.files`, or (`forked`) one over a fork's file system. */
  constructor(
    private readonly options: EmbeddedRuntimeOptions,
    private readonly forked?: ForkedFrom,
  ) {
    this.workdir = normalizeAbsolute(options.workdir ?? DEFAULT_WORKDIR);
    const memory = forked?.memory ?? new InMemoryFs();
    this.memory = memory;
    this.baseline = forked?.baseline ?? new PendingBaseline();
    this.stats = new MemoryStat(() => this.memory, forked?.stats);
    this.readOnly = forked?.readOnly ?? new ReadOnlyPlaces();
    if (!forked) {
      memory.mkdirSync(this.workdir, { recursive: true });
      for (const [path, content] of Object.entries(options.files ?? {})) memory.writeFileSync(resolvePath(this.workdir, path), content);
      makeForkable(memory);
    }
    this.fs = new ObservedFs(memory, (paths) => this.recordChanges(paths), (paths) => this.readOnly.check(paths), (path) => detachEntry(this.memory, path));
    this.engines = options.nodeEngines ?? forked?.engines ?? new NodeEngineChoice();
    this.node = createNodeCommand(this.engines, options.npm?.cache);
    this.npm = createNpmCommands(options.npm);
    const commands = [
      lazyGitCommand({ workdir: this.workdir, baseline: this.baseline, push: options.gitPush, fileStats: this.stats }),
      this.npm.beforeUse(this.node.command),
      ...this.npm.commands,
      ...searchCommands(() => this.searchIndex.current()),
    ];
    this.shell = new BashSession(this.fs, this.workdir, this.changes, commands, { cwd: forked?.cwd, env: forked?.env });
  }

  /** Forks the files in constant time (fork/memory-fork.ts); the fork's shell, watch and search are its own. */
  async fork(options: ForkOptions = {}): Promise<EmbeddedRuntimeFork> {
    this.assertLive();
    if (this.forked) throw new Error('A fork cannot be forked again; fork the live workspace instead.');
    const cwd = options.cwd !== undefined ? this.resolve(options.cwd) : this.shell.directory;
    const files = forkMemory(this.memory, this.workdir);
    const forked: ForkedFrom = { memory: files.memory, cwd, env: options.env, readOnly: this.readOnly, baseline: this.baseline.copy(), stats: this.stats, engines: this.engines };
    const runtime = new InProcessEmbeddedRuntime(this.options, forked);
    return {
      runtime,
      changes: () => files.changes(),
      dispose: async () => {
        await runtime.dispose();
        files.dispose();
      },
    };
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
    const tree = await this.searchIndex.current();
    return tree ? runSearch(absolute, tree) : runSearchAsync(absolute, runtimeSearchSource(this));
  }

  // ---- commands ----

  async exec(command: string, opts: EmbeddedExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    const explicitCwd = opts.cwd !== undefined ? this.resolve(opts.cwd) : undefined;
    return this.shell.run(command, explicitCwd, opts);
  }

  // ---- snapshots ----

  exportZip(opts: { exclude?: string[] } = {}): Promise<Uint8Array> {
    this.assertLive();
    return exportMemoryZip(this.fs, this.workdir, opts.exclude ?? DEFAULT_ZIP_EXCLUDE);
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
    const removed = await carryOverOutside(this.memory, next, this.workdir);
    makeForkable(next);
    this.memory = next;
    this.fs.inner = next;
    this.workspaceReplaced(removed, paths);
  }

  private async replaceWorkspace(entries: WorkspaceEntry[]): Promise<void> {
    this.searchIndex.invalidate();
    const removed = await replaceWorkdir(this.memory, this.workdir, entries);
    this.workspaceReplaced(removed, entries.map((entry) => entry.path));
  }

  /** After the whole workdir was replaced: the watchers hear of it in one batch, the shell starts over in the workdir. */
  private workspaceReplaced(removed: string[], added: string[]): void {
    this.searchIndex.invalidate();
    this.changes.add(removed);
    this.changes.add(added);
    this.changes.flush();
    this.shell.backToWorkdir();
    this.baseline.rearm();
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
    return copyEntries(memoryScanSource(this.fs, this.workdir, true), paths.map((path) => this.inside(path, 'copy')));
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

  async placeReadOnly(root: string, files: WorkspaceFile[]): Promise<void> {
    this.assertLive();
    await this.readOnly.place(this.memory, this.workdir, root, files);
    this.searchIndex.invalidate();
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
    this.searchIndex.invalidate();
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
