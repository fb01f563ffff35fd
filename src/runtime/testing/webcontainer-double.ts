// A Node-backed stand-in for the parts of @webcontainer/api the adapter uses, written from the package's type
// declarations: the fs (rooted at the workdir, a real temp folder), `spawn('jsh', ['-c', script])` run by /bin/sh
// behind pty-like output (merged streams, CRLF line ends, escape sequences around it), `exit`, `kill()`,
// `export(..., { format: 'zip' })`, `mount(tree)`, recursive `fs.watch` and the container's events.
// Node-only: tests and benches import it, the app never does.

import { spawn as spawnChild, type ChildProcess } from 'node:child_process';
import { watch as watchNode } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { minimatch } from 'minimatch';
import type { WcDirEnt, WcFileSystem, WcFileSystemTree, WcProcess, WcSpawnOptions, WebContainerLike } from '../webcontainer-like';

type Listener = (...args: never[]) => void;

// What a real pty shell prints around a command: a window-title OSC and bracketed-paste mode off / colours reset.
const PTY_PREAMBLE = '\x1b]0;jsh\x07\x1b[?2004l';
const PTY_EPILOGUE = '\x1b[0m';

/** Boots a double whose workdir is a fresh temp folder (…/home/<workdirName>). */
export async function createWebContainerDouble(options: { workdirName?: string } = {}): Promise<WebContainerDouble> {
  const root = await nodeFs.mkdtemp(join(tmpdir(), 'conch-wc-'));
  const workdir = join(root, 'home', options.workdirName ?? 'project');
  await nodeFs.mkdir(workdir, { recursive: true });
  return new WebContainerDouble(root, workdir);
}

export class WebContainerDouble implements WebContainerLike {
  readonly fs: WcFileSystem;
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly children = new Set<ChildProcess>();
  /** Every spawn, for assertions: command, args and options. */
  readonly spawned: { command: string; args: string[]; options?: WcSpawnOptions }[] = [];

  constructor(
    private readonly root: string,
    readonly workdir: string,
  ) {
    this.fs = new DoubleFs(workdir);
  }

  async spawn(command: string, args: string[], options: WcSpawnOptions = {}): Promise<WcProcess> {
    this.spawned.push({ command, args, options });
    const cwd = options.cwd === undefined ? this.workdir : resolve(this.workdir, options.cwd);
    const env: Record<string, string> = { ...process.env } as Record<string, string>;
    for (const [key, value] of Object.entries(options.env ?? {})) env[key] = String(value);
    let file = command;
    let argv = args;
    if (command === 'jsh') {
      file = '/bin/sh';
      // A pty merges stdout and stderr into one stream, in order.
      argv = args[0] === '-c' ? ['-c', `exec 2>&1\n${args[1] ?? ''}`] : ['-i'];
    }
    const child = spawnChild(file, argv, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.children.add(child);
    const exit = new Promise<number>((resolveExit) => {
      child.on('error', () => resolveExit(127));
      child.on('close', (code, signal) => {
        this.children.delete(child);
        resolveExit(code ?? (signal ? 128 + signalNumber(signal) : 1));
      });
    });
    return {
      exit,
      output: ptyOutput(child),
      input: new WritableStream<string>({
        write: (chunk) => {
          child.stdin?.write(chunk);
        },
        close: () => {
          child.stdin?.end();
        },
      }),
      kill: () => killTree(child),
      resize: () => undefined,
    };
  }

  async export(path: string, options: { format: 'zip'; excludes?: string[] }): Promise<Uint8Array> {
    const base = resolve(this.workdir, `.${resolve('/', path)}`);
    const excludes = options.excludes ?? [];
    const files: Zippable = {};
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await nodeFs.readdir(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        const rel = relative(base, full);
        if (excludes.some((pattern) => minimatch(rel, pattern, { dot: true }) || minimatch(`${rel}/x`, pattern, { dot: true }))) continue;
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) files[rel] = new Uint8Array(await nodeFs.readFile(full));
      }
    };
    await walk(base);
    return zipSync(files); // like the real export: files only, no folder entries
  }

  async mount(tree: WcFileSystemTree | Uint8Array | ArrayBuffer, options: { mountPoint?: string } = {}): Promise<void> {
    if (tree instanceof Uint8Array || tree instanceof ArrayBuffer) {
      throw new Error('The double mounts FileSystemTree objects only (binary snapshots are not modelled).');
    }
    const write = async (dir: string, node: WcFileSystemTree): Promise<void> => {
      await nodeFs.mkdir(dir, { recursive: true });
      for (const [name, child] of Object.entries(node)) {
        const target = join(dir, name);
        if ('directory' in child) await write(target, child.directory);
        else if ('contents' in child.file) await nodeFs.writeFile(target, child.file.contents);
        else await nodeFs.symlink(child.file.symlink, target);
      }
    };
    await write(resolve(this.workdir, `.${resolve('/', options.mountPoint ?? '.')}`), tree);
  }

  on(event: string, listener: Listener): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** Test hook: fires a container event ('server-ready', 'port', 'error', 'preview-message'). */
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }

  /** Kills what still runs and deletes the temp folder. */
  teardown(): void {
    for (const child of this.children) killTree(child);
    void nodeFs.rm(this.root, { recursive: true, force: true });
  }
}

class DoubleFs implements WcFileSystem {
  constructor(private readonly workdir: string) {}

  /** The fs is rooted at the workdir: '/a' and 'a' are the same file; nothing above the workdir is reachable. */
  private real(path: string): string {
    return resolve(this.workdir, `.${resolve('/', path)}`);
  }

  async readFile(path: string): Promise<Uint8Array> {
    return new Uint8Array(await nodeFs.readFile(this.real(path)));
  }
  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    await nodeFs.writeFile(this.real(path), data);
  }
  readdir(path: string, options: { withFileTypes: true }): Promise<WcDirEnt[]>;
  readdir(path: string): Promise<string[]>;
  async readdir(path: string, options?: { withFileTypes: true }): Promise<WcDirEnt[] | string[]> {
    if (options?.withFileTypes) return nodeFs.readdir(this.real(path), { withFileTypes: true });
    return nodeFs.readdir(this.real(path));
  }
  async mkdir(path: string, options: { recursive: true }): Promise<string | void> {
    return nodeFs.mkdir(this.real(path), options);
  }
  async rm(path: string, options?: { force?: boolean; recursive?: boolean }): Promise<void> {
    await nodeFs.rm(this.real(path), options);
  }
  async rename(oldPath: string, newPath: string): Promise<void> {
    await nodeFs.rename(this.real(oldPath), this.real(newPath));
  }
  watch(
    filename: string,
    options: { recursive?: boolean },
    listener: (event: 'rename' | 'change', filename: string | Uint8Array) => void,
  ): { close(): void } {
    const watcher = watchNode(this.real(filename), { recursive: options.recursive ?? false }, (event, name) => {
      if (name !== null) listener(event, name);
    });
    return { close: () => watcher.close() };
  }
}

/** The child's merged output as a pty shows it: decoded UTF-8, LF as CRLF, wrapped in escape sequences. */
function ptyOutput(child: ChildProcess): ReadableStream<string> {
  const decoder = new TextDecoder();
  const toPty = (text: string) => text.replace(/\n/g, '\r\n');
  return new ReadableStream<string>({
    start(controller) {
      controller.enqueue(PTY_PREAMBLE);
      let open = 2;
      const finish = (): void => {
        if (--open > 0) return;
        const rest = decoder.decode();
        if (rest) controller.enqueue(toPty(rest));
        controller.enqueue(PTY_EPILOGUE);
        controller.close();
      };
      for (const stream of [child.stdout, child.stderr]) {
        stream?.on('data', (bytes: Buffer) => {
          const text = decoder.decode(bytes, { stream: true });
          if (text) controller.enqueue(toPty(text));
          // Backpressure: a 100 MB flood waits for the reader instead of piling up here.
          if ((controller.desiredSize ?? 1) <= 0) {
            child.stdout?.pause();
            child.stderr?.pause();
          }
        });
        stream?.on('end', finish);
      }
    },
    pull() {
      child.stdout?.resume();
      child.stderr?.resume();
    },
    cancel() {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
  }, { highWaterMark: 16 });
}

function killTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL'); // the whole process group: sh and whatever it started
  } catch {
    child.kill('SIGKILL');
  }
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : 1;
}
