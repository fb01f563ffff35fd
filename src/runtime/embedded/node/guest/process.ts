// `process` inside the guest: the job's argv, env and cwd, stdout/stderr through the engine, exit and exitCode,
// nextTick, hrtime and the events Node emits (exit, beforeExit, uncaughtException).

import type { EngineJob } from '../engine/protocol';
import { host } from './host';
import { defineLazy } from './modules/lazy';
import { nodeError } from './node-error';
import { emitWarningOf } from './process-warnings';
import { bufferModule, eventsModule, streamModule } from './modules/packages';

export const NODE_VERSION = 'v20.19.0';

type Listener = (...args: unknown[]) => void;
type GuestProcess = Record<string, unknown> & {
  exitCode: number | undefined;
  /** Set (as in Node) once 'exit' is being emitted: process.exit() from an 'exit' listener does not emit it again. */
  _exiting: boolean;
  emit(event: string, ...args: unknown[]): boolean;
  listenerCount(event: string): number;
  cwd(): string;
};

/** A stdout/stderr stream: write() goes to the engine; enough of a Writable for loggers and test reporters. */
function outputStream(fd: 1 | 2): Record<string, unknown> {
  const { EventEmitter } = eventsModule();
  const stream = new EventEmitter() as unknown as Record<string, unknown>;
  const decode = (chunk: unknown, encoding?: unknown): string => {
    if (typeof chunk === 'string') return chunk;
    if (chunk instanceof Uint8Array) return bufferModule().Buffer.from(chunk).toString(typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${typeof chunk}`);
  };
  Object.assign(stream, {
    fd,
    isTTY: false,
    writable: true,
    write(chunk: unknown, encoding?: unknown, callback?: unknown) {
      host.write(fd, decode(chunk, encoding));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    },
    end(chunk?: unknown, encoding?: unknown, callback?: unknown) {
      if (chunk !== undefined && typeof chunk !== 'function') host.write(fd, decode(chunk, encoding));
      const done = [chunk, encoding, callback].find((value) => typeof value === 'function');
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    },
    cork() {},
    uncork() {},
    setDefaultEncoding() {
      return stream;
    },
    getColorDepth: () => 1,
    hasColors: () => false,
  });
  return stream;
}

/** Builds `process` for this job; `exit` is what process.exit() calls after emitting 'exit'. */
export function createProcess(job: EngineJob, cwd: { get(): string; set(path: string): void }): GuestProcess {
  const { EventEmitter } = eventsModule();
  const process = new EventEmitter() as unknown as GuestProcess;
  let exitCode: number | undefined;
  const started = host.now();

  const hrtime = (previous?: [number, number]): [number, number] => {
    const nanos = Math.round((host.now() - started) * 1e6);
    let seconds = Math.floor(nanos / 1e9);
    let rest = nanos % 1e9;
    if (previous) {
      seconds -= previous[0];
      rest -= previous[1];
      if (rest < 0) {
        seconds--;
        rest += 1e9;
      }
    }
    return [seconds, rest];
  };
  hrtime.bigint = () => BigInt(Math.round((host.now() - started) * 1e6));

  Object.assign(process, {
    title: 'node',
    version: NODE_VERSION,
    versions: { node: NODE_VERSION.slice(1), engine: 'quickjs', conch: '1' },
    release: { name: 'node' },
    platform: 'linux',
    arch: 'wasm32',
    pid: 42,
    ppid: 1,
    argv: job.argv.slice(),
    argv0: 'node',
    execArgv: job.execArgv.slice(),
    execPath: job.argv[0],
    env: { ...job.env },
    config: { variables: {} },
    features: {},
    cwd: () => cwd.get(),
    chdir: (path: string) => cwd.set(path),
    umask: () => 0o22,
    getuid: () => 1000,
    getgid: () => 1000,
    geteuid: () => 1000,
    getegid: () => 1000,
    uptime: () => (host.now() - started) / 1000,
    hrtime,
    memoryUsage: Object.assign(() => ({ rss: host.memoryUsage(), heapTotal: host.memoryUsage(), heapUsed: host.memoryUsage(), external: 0, arrayBuffers: 0 }), {
      rss: () => host.memoryUsage(),
    }),
    cpuUsage: () => ({ user: Math.round((host.now() - started) * 1000), system: 0 }),
    nextTick: (callback: Listener, ...args: unknown[]) => {
      if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function.');
      queueMicrotask(() => callback(...args));
    },
    exit: (code?: unknown) => {
      if (code !== undefined && code !== null) exitCode = Number(code) | 0;
      if (!process._exiting) {
        process._exiting = true;
        process.emit('exit', exitCode ?? 0);
      }
      host.exit(exitCode ?? 0);
    },
    abort: () => host.exit(134),
    kill: () => {
      throw nodeError(Error, 'ERR_CONCH_UNAVAILABLE', "process.kill is not available in Conch's embedded runtime; use the WebContainer runtime for it");
    },
    binding: (name: string) => {
      throw new Error(`No such module: ${name}`);
    },
    stdout: outputStream(1),
    stderr: outputStream(2),
    _exiting: false,
  });
  Object.defineProperty(process, 'exitCode', {
    get: () => exitCode,
    set: (value: unknown) => {
      exitCode = value === undefined || value === null ? undefined : Number(value) | 0;
    },
    enumerable: true,
  });
  defineLazy(process, 'stdin', () => {
    const { Readable } = streamModule();
    const stdin = new Readable({ read() {} }) as unknown as Record<string, unknown> & { push(chunk: unknown): void };
    if (job.stdin !== '') stdin.push(bufferModule().Buffer.from(job.stdin));
    stdin.push(null);
    Object.assign(stdin, { fd: 0, isTTY: false, setRawMode: () => stdin });
    return stdin;
  });
  process.emitWarning = emitWarningOf(process as unknown as Parameters<typeof emitWarningOf>[0], (text) => host.write(2, text));
  (process as Record<string | symbol, unknown>)[Symbol.toStringTag] = 'process';
  return process;
}

/** Marks the process as ending: 'exit' listeners run once, and the exit code they leave wins. */
export function finishProcess(process: GuestProcess): number {
  if (process._exiting) return process.exitCode ?? 0;
  process._exiting = true;
  process.emit('exit', process.exitCode ?? 0);
  return process.exitCode ?? 0;
}
