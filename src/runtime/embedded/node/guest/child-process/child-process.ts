// The guest's `child_process`: spawn, exec, execFile and fork, and their sync forms, each child a command run in the
// embedded shell (so `node`, `npm`, `git` and the shell's own commands), with the parent's env and cwd unless given.
// fork runs `node MODULE` with inherited stdio and no IPC channel (send() says so).

import { bufferModule, utilModule } from '../modules/packages';
import { once } from '../modules/lazy';
import { nodeError } from '../node-error';
import { childProcessClass, type ChildProcess } from './child';
import { commandFailed } from './child-errors';
import { DEFAULT_MAX_BUFFER, UNLIMITED_BUFFER, prepare, splitArgs, type ChildContext, type SpawnOptions, type Stdio } from './spawn-options';
import { createSyncForms } from './sync';

type Callback = (error: Error | null, stdout: unknown, stderr: unknown) => void;

const PIPED: Stdio = ['pipe', 'pipe', 'pipe'];
const INHERITED: Stdio = ['inherit', 'inherit', 'inherit'];

/** The module for one process. */
export function createChildProcess(context: ChildContext): Record<string, unknown> {
  // Built on the first spawn: streams take longer to load than a sync child takes to run.
  const ChildProcessClass = once(childProcessClass);
  const Buffer = () => bufferModule().Buffer;

  const start = (file: unknown, args: string[], options: SpawnOptions, defaults: { stdio: Stdio; maxBuffer: number }): ChildProcess => {
    const child = new (ChildProcessClass())(prepare(context, file, args, options, defaults));
    const signal = options.signal;
    if (signal) {
      const abort = () => {
        child.kill(options.killSignal);
        child.emit('error', Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
      };
      if (signal.aborted) queueMicrotask(abort);
      else {
        signal.addEventListener('abort', abort, { once: true });
        child.once('exit', () => signal.removeEventListener('abort', abort));
      }
    }
    return child;
  };

  /** exec and execFile: the child's output collected and handed to `callback`, with Node's error when it failed. */
  const collect = (child: ChildProcess, cmd: string, options: SpawnOptions, callback: Callback | undefined): ChildProcess => {
    const encoding = options.encoding === undefined ? 'utf8' : options.encoding;
    const chunks: { stdout: Uint8Array[]; stderr: Uint8Array[] } = { stdout: [], stderr: [] };
    child.stdout?.on('data', (chunk: Uint8Array) => chunks.stdout.push(chunk));
    child.stderr?.on('data', (chunk: Uint8Array) => chunks.stderr.push(chunk));
    const text = (parts: Uint8Array[]) => {
      const bytes = Buffer().concat(parts);
      return typeof encoding === 'string' && encoding !== 'buffer' ? bytes.toString(encoding as BufferEncoding) : bytes;
    };
    let reported = false;
    child.once('error', (error: Error) => {
      if (reported) return;
      reported = true;
      callback?.(error, text(chunks.stdout), text(chunks.stderr));
    });
    child.once('close', (code: number | null, signal: string | null) => {
      if (reported) return;
      reported = true;
      const stdout = text(chunks.stdout);
      const stderr = text(chunks.stderr);
      if (code === 0 && signal === null) callback?.(null, stdout, stderr);
      else callback?.(commandFailed(cmd, stderr.toString(), { code, killed: child.killed || signal !== null, signal, cmd }), stdout, stderr);
    });
    return child;
  };

  const spawn = (file: unknown, args?: unknown, options?: unknown): ChildProcess => {
    const split = splitArgs(args, options);
    return start(file, split.args, split.options, { stdio: PIPED, maxBuffer: UNLIMITED_BUFFER });
  };

  const exec = (command: unknown, options?: unknown, callback?: unknown): ChildProcess => {
    const [opts, done] = typeof options === 'function' ? [{}, options as Callback] : [splitArgs(undefined, options).options, callback as Callback | undefined];
    const child = start(command, [], { ...opts, shell: opts.shell ?? true }, { stdio: PIPED, maxBuffer: DEFAULT_MAX_BUFFER });
    return collect(child, String(command), opts, done);
  };

  const execFile = (file: unknown, ...rest: unknown[]): ChildProcess => {
    const done = typeof rest[rest.length - 1] === 'function' ? (rest.pop() as Callback) : undefined;
    const split = splitArgs(rest[0], rest[1]);
    const child = start(file, split.args, split.options, { stdio: PIPED, maxBuffer: DEFAULT_MAX_BUFFER });
    return collect(child, [String(file), ...split.args].join(' '), split.options, done);
  };

  const fork = (modulePath: unknown, args?: unknown, options?: unknown): ChildProcess => {
    if (typeof modulePath !== 'string' && !(modulePath instanceof URL)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "modulePath" argument must be of type string or an instance of URL. Received type ${typeof modulePath}`);
    }
    const split = splitArgs(args, options);
    const path = modulePath instanceof URL ? decodeURIComponent(modulePath.pathname) : modulePath;
    const execArgv = (split.options as { execArgv?: unknown[] }).execArgv?.map(String) ?? [];
    const silent = (split.options as { silent?: unknown }).silent === true;
    return start('node', [...execArgv, path, ...split.args], split.options, { stdio: silent ? PIPED : INHERITED, maxBuffer: UNLIMITED_BUFFER });
  };

  const promisified = (run: (...args: unknown[]) => ChildProcess) => (...args: unknown[]) => {
    let child: ChildProcess | undefined;
    const promise = new Promise((resolve, reject) => {
      child = run(...args, (error: Error | null, stdout: unknown, stderr: unknown) => {
        if (error) reject(Object.assign(error, { stdout, stderr }));
        else resolve({ stdout, stderr });
      });
    });
    return Object.assign(promise, { child });
  };
  const custom = (utilModule().promisify as unknown as { custom: symbol }).custom;
  for (const [fn, run] of [[exec, exec], [execFile, execFile]] as const) {
    const promise = promisified(run as (...args: unknown[]) => ChildProcess);
    Object.defineProperty(fn, custom, { value: promise });
    Object.defineProperty(fn, Symbol.for('nodejs.util.promisify.custom'), { value: promise });
  }

  const module = { spawn, exec, execFile, fork, ...createSyncForms(context) };
  return Object.defineProperty(module, 'ChildProcess', { enumerable: true, get: ChildProcessClass });
}
