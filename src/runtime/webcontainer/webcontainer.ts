// The WebContainer runtime: the `Runtime` interface over a booted StackBlitz WebContainer (real Node, npm and dev
// servers in the tab). Everything goes through the structural `WebContainerLike`, so tests drive it with a double.

import type { ExecProbeReport, ExecStrategy } from './exec-probe';
import { holdInputUntilInteractive, type InteractiveShellProcess } from './jsh/interactive-shell';
import { normalizeAbsolute, parentOf, relativeTo, resolvePath } from '../paths';
import type { EntryType, ExecOptions, ExecResult, Runtime } from '../types';
import type { SearchRequest, SearchResult } from '../search-types';
import { searchWebContainer } from './search';
import { WatchBatcher } from '../workspace/watch-batcher';
import { CommandRunner, spawnCwd } from './commands';
import type { WebContainerLike } from './webcontainer-like';
import { DEFAULT_ZIP_EXCLUDE, makeExcluder, packWorkspaceZip, unpackWorkspaceZip, workspaceEntriesOf, type WorkspaceEntry, type WorkspaceFile } from '../zip/workspace-zip';
import { entriesToTree } from './mount-tree';

export type { WebContainerLike } from './webcontainer-like';
export type { ExecProbeReport, ExecStrategy } from './exec-probe';
export { AGENT_COMMAND_ENV } from './commands';

export type WebContainerRuntimeOptions = {
  /** Every command's raw output (escape sequences kept), for a read-only "agent" terminal view. */
  onRawOutput?: (chunk: string, command: string) => void;
  /** How commands run: 'probe' (default) asks jsh once at the first command; tests and the check page may force one. */
  exec?: 'probe' | ExecStrategy;
};

export type WebContainerExecOptions = ExecOptions & {
  /** This command's raw output, escape sequences kept (onOutput gets it stripped). */
  onRawOutput?: (chunk: string) => void;
};

/** The WebContainer runtime plus what only it can do: an interactive shell, and the container's events. */
export interface WebContainerRuntime extends Runtime {
  readonly kind: 'webcontainer';
  /** The container itself, e.g. for `on('server-ready' | 'port' | 'preview-message' | 'error')`. */
  readonly container: WebContainerLike;
  exec(command: string, opts?: WebContainerExecOptions): Promise<ExecResult>;
  /** Starts the person's interactive `jsh --osc` on a pseudo-terminal of the given size, in the same container. */
  openShell(size: { cols: number; rows: number }): Promise<InteractiveShellProcess>;
  /** Which way commands run, and what the boot probe found. */
  execStrategy(): Promise<ExecProbeReport>;
}

/** Wraps a booted WebContainer as a Runtime rooted at its workdir. */
export function createWebContainerRuntime(wc: WebContainerLike, opts: WebContainerRuntimeOptions = {}): WebContainerRuntime {
  return new WebContainerAdapter(wc, opts);
}

class WebContainerAdapter implements WebContainerRuntime {
  readonly kind = 'webcontainer' as const;
  readonly workdir: string;
  private cwd: string;
  private readonly changes = new WatchBatcher();
  private watcher: { close(): void } | undefined;
  private disposed = false;
  private readonly commands: CommandRunner;

  constructor(
    readonly container: WebContainerLike,
    options: WebContainerRuntimeOptions,
  ) {
    this.workdir = normalizeAbsolute(container.workdir);
    this.cwd = this.workdir;
    this.commands = new CommandRunner(container, this.workdir, { exec: options.exec ?? 'probe', onRawOutput: options.onRawOutput });
  }

  // ---- files ----

  async readFile(path: string): Promise<Uint8Array> {
    const rel = this.toFsPath(path);
    const info = await this.statRelative(rel);
    if (info === null) throw notFound(path);
    if (info.type === 'dir') throw new Error(`EISDIR: ${path} is a directory, not a file. List it with ls instead.`);
    return this.container.fs.readFile(rel);
  }

  async writeFile(path: string, data: Uint8Array | string): Promise<void> {
    const rel = this.toFsPath(path);
    if ((await this.statRelative(rel))?.type === 'dir') {
      throw new Error(`EISDIR: ${path} is a directory; choose a file path to write.`);
    }
    await this.ensureDir(parentRel(rel), path);
    await this.container.fs.writeFile(rel, data);
    this.changes.add([rel]);
  }

  async readdir(path: string): Promise<{ name: string; type: EntryType }[]> {
    const rel = this.toFsPath(path);
    const info = await this.statRelative(rel);
    if (info === null) throw notFound(path);
    if (info.type !== 'dir') throw new Error(`ENOTDIR: ${path} is not a directory.`);
    const entries = await this.container.fs.readdir(rel, { withFileTypes: true });
    return entries
      .map((entry) => ({ name: entry.name, type: direntType(entry) }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string): Promise<{ type: EntryType; size: number } | null> {
    return this.statRelative(this.toFsPath(path));
  }

  async mkdir(path: string): Promise<void> {
    await this.ensureDir(this.toFsPath(path), path);
  }

  async rm(path: string, opts: { recursive?: boolean } = {}): Promise<void> {
    const rel = this.toFsPath(path);
    if (rel === '.') throw new Error(`Refusing to remove ${this.workdir}: it is the workspace root. Remove the entries inside it instead.`);
    const info = await this.statRelative(rel);
    if (info === null) throw notFound(path);
    if (info.type === 'dir' && !opts.recursive && (await this.container.fs.readdir(rel)).length > 0) {
      throw new Error(`ENOTEMPTY: ${path} is a non-empty directory; pass recursive to remove it.`);
    }
    await this.container.fs.rm(rel, { recursive: info.type === 'dir' });
    this.changes.add([rel]);
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.toFsPath(from);
    const target = this.toFsPath(to);
    if ((await this.statRelative(source)) === null) throw notFound(from);
    await this.ensureDir(parentRel(target), to);
    await this.container.fs.rename(source, target);
    this.changes.add([source, target]);
  }

  /** Runtime.search over the container's fs (search.ts). */
  search(request: SearchRequest): Promise<SearchResult> {
    return searchWebContainer(this.container.fs, this.workdir, { ...request, path: this.toAbsolute(request.path) });
  }

  /** WebContainer's fs cannot resolve symlinks; the lexical absolute path is the best canonical form it offers. */
  async realpath(path: string): Promise<string> {
    return this.toAbsolute(path);
  }

  // ---- commands ----

  /** How this runtime runs commands (see exec-probe.ts): probed once, at boot or on the first command. */
  execStrategy(): Promise<ExecProbeReport> {
    return this.commands.strategy();
  }

  /** Runs `command` in the session's folder, or in `opts.cwd` (see CommandRunner.run for which shell it gets). */
  async exec(command: string, opts: WebContainerExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    const ownShell = opts.cwd !== undefined || opts.env !== undefined;
    const explicitCwd = opts.cwd !== undefined ? this.toAbsolute(opts.cwd) : undefined;
    let startDir = explicitCwd ?? this.cwd;
    let preface = '';
    if ((await this.statRelative(this.fsPathOfAbsolute(startDir)))?.type !== 'dir') {
      if (explicitCwd !== undefined) return { output: `cwd ${explicitCwd} does not exist or is not a directory.`, exitCode: 1 };
      preface = `[the previous working directory ${startDir} no longer exists; running in ${this.workdir}]\n`;
      startDir = this.cwd = this.workdir;
    }
    const { result, cwd } = await this.commands.run(command, { ...opts, startDir, ownShell, preface });
    if (cwd) this.cwd = normalizeAbsolute(cwd);
    return result;
  }

  /** Starts the person's interactive `jsh --osc` in the session's folder; keystrokes wait until it is interactive. */
  async openShell(size: { cols: number; rows: number }): Promise<InteractiveShellProcess> {
    this.assertLive();
    const process = await this.container.spawn('/bin/jsh', ['--osc'], { cwd: spawnCwd(this.workdir, this.cwd), terminal: size });
    return holdInputUntilInteractive(process);
  }

  // ---- snapshots ----

  async exportZip(opts: { exclude?: string[] } = {}): Promise<Uint8Array> {
    this.assertLive();
    const exclude = [...(opts.exclude ?? DEFAULT_ZIP_EXCLUDE)];
    const exported = await this.container.export('.', { format: 'zip', excludes: containerExcludes(exclude) });
    // Repacked in Conch's own layout (and filtered again with the same matcher as the embedded runtime) so a
    // snapshot restores identically on either runtime whatever the container's zip writer does.
    const excluded = makeExcluder(exclude);
    const files = unpackWorkspaceZip(exported).filter((entry) => !excluded(entry.path));
    // Folder entries come from a listing: a container zip may hold files only, and empty folders must survive.
    const folders: WorkspaceEntry[] = (await this.listFolders(excluded)).map((path) => ({ path, kind: 'dir' }));
    return packWorkspaceZip([...folders, ...files]);
  }

  private async listFolders(excluded: (path: string) => boolean): Promise<string[]> {
    const folders: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      for (const entry of await this.container.fs.readdir(rel, { withFileTypes: true })) {
        const path = rel === '.' ? entry.name : `${rel}/${entry.name}`;
        if (!entry.isDirectory() || excluded(path)) continue;
        folders.push(path);
        await walk(path);
      }
    };
    await walk('.');
    return folders;
  }

  /** Replaces the whole workspace with the zip's contents (replace, not merge). */
  async importZip(zip: Uint8Array): Promise<void> {
    this.assertLive();
    await this.replaceWorkspace(unpackWorkspaceZip(zip)); // validated before anything is deleted
  }

  /** Replaces the whole workspace with `files` (replace, not merge); folders are created for their parents. */
  async importFiles(files: WorkspaceFile[]): Promise<void> {
    this.assertLive();
    await this.replaceWorkspace(workspaceEntriesOf(files)); // validated before anything is deleted
  }

  private async replaceWorkspace(entries: WorkspaceEntry[]): Promise<void> {
    for (const name of await this.container.fs.readdir('.')) {
      await this.container.fs.rm(name, { recursive: true, force: true });
      this.changes.add([name]);
    }
    await this.container.mount(entriesToTree(entries));
    this.changes.add(entries.map((entry) => entry.path));
    this.cwd = this.workdir;
  }

  watch(listener: (paths: string[]) => void): () => void {
    this.assertLive();
    const unsubscribe = this.changes.subscribe(listener);
    this.watcher ??= this.container.fs.watch('.', { recursive: true }, (_event, filename) => {
      const name = typeof filename === 'string' ? filename : new TextDecoder().decode(filename);
      const rel = relativeTo(this.workdir, resolvePath(this.workdir, name));
      // An npm install makes tens of thousands of changes inside node_modules; only the folder itself is news.
      if (rel && !isInsideNodeModules(rel)) this.changes.add([rel]);
    });
    return () => {
      unsubscribe();
      if (!this.changes.hasListeners) {
        this.watcher?.close();
        this.watcher = undefined;
      }
    };
  }

  /** Stops watching and ends the shell session; the container itself stays up (WebContainer boots once per page). */
  async dispose(): Promise<void> {
    this.commands.dispose();
    this.watcher?.close();
    this.watcher = undefined;
    this.changes.flush();
    this.changes.dispose();
    this.disposed = true;
  }

  // ---- helpers ----

  private assertLive(): void {
    if (this.disposed) throw new Error('This runtime was disposed; create a new one to keep working.');
  }

  private toAbsolute(path: string): string {
    this.assertLive();
    const absolute = resolvePath(this.workdir, path);
    if (relativeTo(this.workdir, absolute) === undefined) {
      throw new Error(
        `The path ${path} resolves to ${absolute}, outside the workspace ${this.workdir}. Only files inside the workspace can be used.`,
      );
    }
    return absolute;
  }

  /** The container-fs path (relative to the workdir; '.' for the root), after confining `path` to the workdir. */
  private toFsPath(path: string): string {
    return this.fsPathOfAbsolute(this.toAbsolute(path));
  }

  private fsPathOfAbsolute(absolute: string): string {
    const rel = relativeTo(this.workdir, absolute);
    return rel === undefined || rel === '' ? '.' : rel;
  }

  /** WebContainer's fs has no stat: the type comes from the parent's typed listing, a file's size from its bytes. */
  private async statRelative(rel: string): Promise<{ type: EntryType; size: number } | null> {
    if (rel === '.') return { type: 'dir', size: 0 };
    const name = rel.slice(rel.lastIndexOf('/') + 1);
    let entries;
    try {
      entries = await this.container.fs.readdir(parentRel(rel), { withFileTypes: true });
    } catch {
      return null; // the parent is missing or is a file
    }
    const entry = entries.find((e) => e.name === name);
    if (!entry) return null;
    const type = direntType(entry);
    if (type !== 'file') return { type, size: 0 };
    return { type, size: (await this.container.fs.readFile(rel)).byteLength };
  }

  private async ensureDir(rel: string, asGiven: string): Promise<void> {
    if (rel === '.') return;
    let current = '';
    for (const segment of rel.split('/')) {
      current = current === '' ? segment : `${current}/${segment}`;
      const info = await this.statRelative(current);
      if (info?.type === 'dir') continue;
      if (info) throw new Error(`ENOTDIR: cannot create ${asGiven}: ${current} is a file, not a directory.`);
      await this.container.fs.mkdir(current, { recursive: true });
      this.changes.add([current]);
    }
  }
}

function parentRel(rel: string): string {
  const parent = parentOf(`/${rel}`);
  return parent === '/' ? '.' : parent.slice(1);
}

function direntType(entry: { isFile(): boolean; isDirectory(): boolean }): EntryType {
  return entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'symlink';
}

function notFound(path: string): Error {
  return new Error(`ENOENT: no such file or directory: ${path}`);
}

/**
 * The exclude list for the container's own export, whose glob semantics are undocumented: each pattern both as given
 * and as the bare folder (`node_modules/**` and `node_modules`, as TutorialKit passes it). The adapter filters the
 * result again with its own matcher, so what is excluded does not depend on either form working.
 */
function containerExcludes(patterns: readonly string[]): string[] {
  const all = new Set<string>();
  for (const pattern of patterns) {
    all.add(pattern);
    if (pattern.endsWith('/**')) all.add(pattern.slice(0, -3));
  }
  return [...all];
}

function isInsideNodeModules(rel: string): boolean {
  const segments = rel.split('/');
  const at = segments.indexOf('node_modules');
  return at !== -1 && at < segments.length - 1;
}
