// The WebContainer runtime: the `Runtime` interface over a booted StackBlitz WebContainer (real Node, npm and dev
// servers in the tab). Everything goes through the structural `WebContainerLike`, so tests drive it with a double.

import { AnsiStripper } from './ansi';
import { CwdMarker } from './cwd-marker';
import { appendNote, stopNote } from './exec-notes';
import { createExecSignal } from './exec-signal';
import { OutputTail } from './output-tail';
import { normalizeAbsolute, parentOf, relativeTo, resolvePath } from './paths';
import type { EntryType, ExecOptions, ExecResult, Runtime } from './types';
import type { SearchRequest, SearchResult } from './search-types';
import { searchWebContainer } from './webcontainer-search';
import { WatchBatcher } from './watch-batcher';
import type { WcProcess, WebContainerLike } from './webcontainer-like';
import { DEFAULT_ZIP_EXCLUDE, makeExcluder, packWorkspaceZip, unpackWorkspaceZip, workspaceEntriesOf, type WorkspaceEntry, type WorkspaceFile } from './zip';
import { entriesToTree } from './zip-tree';

export type { WebContainerLike } from './webcontainer-like';

export type WebContainerRuntimeOptions = {
  /** Every command's raw output (escape sequences kept), for a read-only "agent" terminal view. */
  onRawOutput?: (chunk: string, command: string) => void;
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
  /** Starts the person's interactive `jsh` on a pseudo-terminal of the given size, in the same container. */
  openShell(size: { cols: number; rows: number }): Promise<WcProcess>;
}

// Background jobs (`npm run dev &`) keep the pseudo-terminal open after the shell exits; once the exit code is in,
// output still arriving within this window is kept, then reading stops.
const OUTPUT_DRAIN_AFTER_EXIT_MS = 250;

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

  constructor(
    readonly container: WebContainerLike,
    private readonly options: WebContainerRuntimeOptions,
  ) {
    this.workdir = normalizeAbsolute(container.workdir);
    this.cwd = this.workdir;
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

  /** Runtime.search over the container's fs (webcontainer-search.ts). */
  search(request: SearchRequest): Promise<SearchResult> {
    return searchWebContainer(this.container.fs, this.workdir, { ...request, path: this.toAbsolute(request.path) });
  }

  /** WebContainer's fs cannot resolve symlinks; the lexical absolute path is the best canonical form it offers. */
  async realpath(path: string): Promise<string> {
    return this.toAbsolute(path);
  }

  // ---- commands ----

  async exec(command: string, opts: WebContainerExecOptions = {}): Promise<ExecResult> {
    this.assertLive();
    const explicitCwd = opts.cwd !== undefined ? this.toAbsolute(opts.cwd) : undefined;
    let startDir = explicitCwd ?? this.cwd;
    let preface = '';
    if ((await this.statRelative(this.fsPathOfAbsolute(startDir)))?.type !== 'dir') {
      if (explicitCwd !== undefined) return { output: `cwd ${explicitCwd} does not exist or is not a directory.`, exitCode: 1 };
      preface = `[the previous working directory ${startDir} no longer exists; running in ${this.workdir}]\n`;
      startDir = this.cwd = this.workdir;
    }

    const stopper = createExecSignal({ external: opts.signal, timeoutMs: opts.timeoutMs });
    const tail = new OutputTail();
    const emit = (text: string): void => {
      if (text === '') return;
      tail.push(text);
      opts.onOutput?.(text);
    };
    emit(preface);
    try {
      if (stopper.stopReason() !== undefined) {
        return { output: appendNote(tail.text(), stopNote(stopper.stopReason() ?? 'abort', opts.timeoutMs)), exitCode: null };
      }
      const marker = new CwdMarker();
      const stripper = new AnsiStripper();
      const process = await this.container.spawn('jsh', ['-c', marker.wrap(command)], { cwd: startDir, env: opts.env });
      const stopped = new Promise<'stopped'>((resolve) => {
        if (stopper.signal.aborted) resolve('stopped');
        stopper.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
      });
      void stopped.then(() => process.kill());

      const onRaw = (raw: string): void => {
        if (raw === '') return;
        opts.onRawOutput?.(raw);
        this.options.onRawOutput?.(raw, command);
        emit(stripper.push(raw));
      };
      const reader = process.output.getReader();
      const reading = (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          onRaw(marker.push(value));
        }
      })().catch(() => undefined); // a cancelled or broken stream just ends the output
      const exited = process.exit.then((code) => ({ code }));

      const first = await Promise.race([reading.then(() => 'drained' as const), exited, stopped]);
      let exitCode: number | null = null;
      if (first !== 'stopped') {
        const outcome = await Promise.race([exited, stopped]);
        if (outcome !== 'stopped') {
          exitCode = outcome.code;
          await Promise.race([reading, delay(OUTPUT_DRAIN_AFTER_EXIT_MS), stopped]);
        }
      }
      await reader.cancel().catch(() => undefined);
      onRaw(marker.flush());
      emit(stripper.flush());

      const reason = stopper.stopReason();
      if (reason !== undefined) return { output: appendNote(tail.text(), stopNote(reason, opts.timeoutMs)), exitCode: null };
      if (explicitCwd === undefined && marker.cwd) this.cwd = normalizeAbsolute(marker.cwd);
      return { output: tail.text(), exitCode };
    } finally {
      stopper.dispose();
    }
  }

  async openShell(size: { cols: number; rows: number }): Promise<WcProcess> {
    this.assertLive();
    return this.container.spawn('jsh', [], { cwd: this.cwd, terminal: size });
  }

  // ---- snapshots ----

  async exportZip(opts: { exclude?: string[] } = {}): Promise<Uint8Array> {
    this.assertLive();
    const exclude = [...(opts.exclude ?? DEFAULT_ZIP_EXCLUDE)];
    const exported = await this.container.export('.', { format: 'zip', excludes: exclude });
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
      if (rel) this.changes.add([rel]);
    });
    return () => {
      unsubscribe();
      if (!this.changes.hasListeners) {
        this.watcher?.close();
        this.watcher = undefined;
      }
    };
  }

  /** Stops watching; the container itself stays up (WebContainer boots once per page). */
  async dispose(): Promise<void> {
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
