// A Node-backed stand-in for @webcontainer/api 1.6.4, as honest as its typings and dist allow: the fs rooted at the
// workdir (a real temp folder), processes on real pseudo-terminals, `jsh -c` and the interactive `jsh [--osc]` played
// by jsh-double.ts, `export` / `mount`, `fs.watch`, the container's events, teardown, and (through
// createWebContainerApiDouble) a `WebContainer.boot` that can hang like the real one offline. Whatever had to be
// guessed is in webcontainer-guesses.ts. Node-only: tests and benches import it, the app never does.

import { watch as watchNode } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { minimatch } from 'minimatch';
import type { WcDirEnt, WcFileSystem, WcFileSystemTree, WcProcess, WcSpawnOptions, WebContainerLike } from '../webcontainer/webcontainer-like';
import { startInteractiveJsh, startJshScript, type JshContext, type JshDouble } from './jsh-double';
import { shellQuote, startPtyProcess, type PtySize } from './pty-process';
import { ABSOLUTE_CWD_IS_WORKDIR_RELATIVE, KILLED_EXIT_CODE } from './webcontainer-guesses';

type Listener = (...args: never[]) => void;

/** The boot options the double records (the shape of @webcontainer/api's BootOptions). */
export type DoubleBootOptions = { coep?: string; workdirName?: string; forwardPreviewErrors?: boolean | 'exceptions-only' };

export type WebContainerDoubleOptions = {
  workdirName?: string;
  /** Make `export` ignore `excludes` (their glob semantics are undocumented; the adapter must not depend on them). */
  exportIgnoresExcludes?: boolean;
  /**
   * Which jsh to play: 'as-reported' (default) refuses what jsh is reported to lack (printf, sleep, variables, loops);
   * 'posix' runs any /bin/sh line (a jsh that grew those), for the adapter's other strategies.
   */
  jshGrammar?: 'as-reported' | 'posix';
  /** false: a jsh that ignores `--osc` (no OSC 654 sequences), for the adapter's fallbacks. Default true. */
  jshOsc?: boolean;
};

// Without a `terminal` option a process still runs on a pty; GUESS: of this size.
const DEFAULT_PTY: PtySize = { cols: 80, rows: 24 };

/** Boots a double whose workdir is a fresh temp folder (…/home/<workdirName>). */
export async function createWebContainerDouble(options: WebContainerDoubleOptions = {}): Promise<WebContainerDouble> {
  const root = await nodeFs.mkdtemp(join(tmpdir(), 'conch-wc-'));
  const workdir = join(root, 'home', options.workdirName ?? 'project');
  await nodeFs.mkdir(workdir, { recursive: true });
  return new WebContainerDouble(root, workdir, options);
}

export class WebContainerDouble implements WebContainerLike {
  readonly fs: WcFileSystem;
  /** Every spawn, for assertions: command, args and options. */
  readonly spawned: { command: string; args: string[]; options?: WcSpawnOptions }[] = [];
  /** Console warnings the real API would print (writes to or resizes of an exited process). */
  readonly warnings: string[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly running = new Set<{ kill(): void }>();
  private tornDown = false;

  constructor(
    private readonly root: string,
    readonly workdir: string,
    private readonly options: WebContainerDoubleOptions = {},
  ) {
    this.fs = new DoubleFs(workdir, () => this.assertUp());
  }

  get isTornDown(): boolean {
    return this.tornDown;
  }

  async spawn(command: string, args: string[], options: WcSpawnOptions = {}): Promise<WcProcess> {
    this.assertUp();
    this.spawned.push({ command, args, options });
    const cwd = this.spawnCwd(options.cwd);
    if ((await nodeFs.stat(cwd).catch(() => null))?.isDirectory() !== true) {
      throw new Error(`ENOENT: no such file or directory, cwd '${options.cwd}'`);
    }
    // The container's home has no .npmrc: the host's npm settings (this machine's may say yes=false) stay out.
    const env: Record<string, string> = { ...containerEnvironment(), TERM: 'xterm-256color', npm_config_userconfig: join(this.root, 'home', '.npmrc') };
    for (const [key, value] of Object.entries(options.env ?? {})) env[key] = String(value);
    const size = options.terminal ?? DEFAULT_PTY;

    let controller!: ReadableStreamDefaultController<string>;
    // No backpressure, as in the dist: every chunk is enqueued whether or not anyone reads.
    const output = new ReadableStream<string>({ start: (c) => void (controller = c) });
    let exited = false;
    let settleExit!: (code: number) => void;
    const exit = new Promise<number>((resolveExit) => (settleExit = resolveExit));
    const context: JshContext = {
      cwd,
      env,
      size,
      displayPath: (path) => this.displayPath(path),
      emit: (text) => {
        if (!exited && text !== '' && options.output !== false) controller.enqueue(text);
      },
      end: (code) => {
        if (exited) return;
        exited = true;
        this.running.delete(handle);
        controller.close();
        settleExit(code);
      },
    };
    const shell = this.start(command, args, context);
    const handle = { kill: () => shell.kill(KILLED_EXIT_CODE) };
    this.running.add(handle);

    return {
      exit,
      output,
      // No close handler, as in the dist: closing the input sends no end-of-file.
      input: new WritableStream<string>({
        write: (chunk) => {
          if (exited) this.warnings.push('This process already exited');
          else shell.input(chunk);
        },
      }),
      kill: () => {
        if (!exited) handle.kill();
      },
      resize: (dimensions) => {
        if (exited) this.warnings.push('This process already exited');
        else shell.resize(dimensions);
      },
    };
  }

  async export(path: string, options: { format: 'zip'; excludes?: string[] }): Promise<Uint8Array> {
    this.assertUp();
    const base = this.real(path);
    const excludes = this.options.exportIgnoresExcludes ? [] : (options.excludes ?? []);
    const excluded = (rel: string) => excludes.some((pattern) => minimatch(rel, pattern, { dot: true }));
    const files: Zippable = {};
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await nodeFs.readdir(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        const rel = relative(base, full);
        if (excluded(rel)) continue;
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) files[rel] = new Uint8Array(await nodeFs.readFile(full));
      }
    };
    await walk(base);
    return zipSync(files);
  }

  async mount(tree: WcFileSystemTree | Uint8Array | ArrayBuffer, options: { mountPoint?: string } = {}): Promise<void> {
    this.assertUp();
    if (tree instanceof Uint8Array || tree instanceof ArrayBuffer) {
      const buffer = tree instanceof Uint8Array ? tree.buffer : tree;
      structuredClone(buffer, { transfer: [buffer as ArrayBuffer] }); // transferred, as the dist does: the caller's copy is gone
      throw new Error('The WebContainer double mounts FileSystemTree objects only (binary snapshots are not modelled).');
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
    await write(this.real(options.mountPoint ?? '.'), tree);
  }

  on(event: string, listener: Listener): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /**
   * Test hook: fires a container event. The double does not notice servers by itself: tests fire 'port' and
   * 'server-ready', 'error' ({ message }) and 'preview-message'.
   */
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  }

  /** Kills what still runs and deletes the temp folder; a second call throws, as the real one does. */
  teardown(): void {
    if (this.tornDown) throw new Error('WebContainer already torn down');
    this.tornDown = true;
    for (const process of [...this.running]) process.kill();
    void nodeFs.rm(this.root, { recursive: true, force: true });
  }

  private start(command: string, args: string[], context: JshContext): JshDouble {
    if (command === 'jsh' || command === '/bin/jsh') {
      const grammar = this.options.jshGrammar ?? 'as-reported';
      if (args[0] === '-c') return startJshScript(args[1] ?? '', context, grammar);
      return startInteractiveJsh(context, args.includes('--osc') && this.options.jshOsc !== false, grammar);
    }
    const pty = startPtyProcess(`exec ${[command, ...args].map(shellQuote).join(' ')}`, { ...context, onOutput: context.emit });
    void pty.exit.then((code) => context.end(code));
    return {
      input: (text) => pty.write(text),
      resize: () => undefined,
      kill: (code) => {
        pty.kill();
        context.end(code);
      },
    };
  }

  private spawnCwd(cwd: string | undefined): string {
    if (cwd === undefined) return this.workdir;
    return ABSOLUTE_CWD_IS_WORKDIR_RELATIVE ? this.real(cwd) : resolve(this.workdir, cwd);
  }

  /** A workdir-relative (or workdir-rooted absolute) path on the host; nothing above the workdir is reachable. */
  private real(path: string): string {
    return resolve(this.workdir, `.${resolve('/', path)}`);
  }

  private displayPath(path: string): string {
    const home = join(this.root, 'home');
    return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
  }

  private assertUp(): void {
    if (this.tornDown) throw new Error('This WebContainer was torn down.');
  }
}

class DoubleFs implements WcFileSystem {
  constructor(
    private readonly workdir: string,
    private readonly assertUp: () => void,
  ) {}

  /** The fs is rooted at the workdir: '/a' and 'a' are the same file; nothing above the workdir is reachable. */
  private real(path: string): string {
    this.assertUp();
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
  /** Registers asynchronously, as the dist does: changes made before the registration settles are not reported. */
  watch(
    filename: string,
    options: { recursive?: boolean },
    listener: (event: 'rename' | 'change', filename: string | Uint8Array) => void,
  ): { close(): void } {
    const target = this.real(filename);
    let closed = false;
    let watcher: { close(): void } | undefined;
    setImmediate(() => {
      if (closed) return;
      watcher = watchNode(target, { recursive: options.recursive ?? false }, (event, name) => {
        if (!closed && name !== null) listener(event, name);
      });
    });
    return {
      close: () => {
        closed = true;
        watcher?.close();
      },
    };
  }
}

/**
 * The host's environment minus what the container would not have: npm's settings from the `npm test` or `npx` that
 * runs the tests (npx sets npm_config_yes to '' for its children) and CI markers, which change how tools behave.
 */
function containerEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || /^npm_/i.test(key) || /^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|RUN_ID)$/.test(key)) continue;
    env[key] = value;
  }
  return env;
}

/**
 * A stand-in for the `@webcontainer/api` module (for bootWebContainer's loader), with the boot lifecycle the dist
 * shows: the boot iframe's promise is made once per page and, with `network` 'unreachable', never settles (a promise
 * given as `network` settles it when it resolves); a boot while another is pending waits for it; a second live
 * instance is refused. `buildErrors` fail that many boots after the iframe answered, one each.
 */
export function createWebContainerApiDouble(
  options: { network?: 'reachable' | 'unreachable' | Promise<void>; buildErrors?: Error[] } = {},
) {
  let server: Promise<void> | undefined;
  let pendingBoot: Promise<unknown> | undefined;
  let instance: WebContainerDouble | undefined;
  const buildErrors = [...(options.buildErrors ?? [])];
  const bootCalls: DoubleBootOptions[] = [];
  const network = options.network ?? 'reachable';
  const WebContainer = {
    async boot(bootOptions: DoubleBootOptions = {}): Promise<WebContainerDouble> {
      bootCalls.push(bootOptions);
      while (pendingBoot) await pendingBoot;
      if (instance && !instance.isTornDown) throw new Error('Only a single WebContainer instance can be booted');
      const attempt = (async () => {
        server ??= network === 'unreachable' ? new Promise<void>(() => undefined) : network === 'reachable' ? Promise.resolve() : network;
        await server;
        const failure = buildErrors.shift();
        if (failure) throw failure;
        return createWebContainerDouble({ workdirName: bootOptions.workdirName });
      })();
      pendingBoot = attempt.catch(() => undefined);
      try {
        instance = await attempt;
        return instance;
      } finally {
        pendingBoot = undefined;
      }
    },
  };
  /** The instance booted last, for teardown in tests. */
  const booted = () => instance;
  return { WebContainer, bootCalls, booted };
}
