// The arguments of spawn, exec, execFile and their sync forms, as Node takes them, turned into the host's ChildSpec
// and the stdio plan: which of the child's streams are piped to the parent, inherited (written to the parent's own
// stdout and stderr) or ignored.

import type { ChildSpec } from '../../subprocess/messages';
import { SIGNALS } from '../../subprocess/messages';
import { nodeError } from '../node-error';
import { pathModule } from '../modules/packages';

/** What child_process needs of its process. */
export type ChildContext = {
  cwd(): string;
  env(): Record<string, unknown>;
  /** The parent's own stdin, for a child whose stdin is inherited. */
  stdin(): string;
  isDirectory(path: string): boolean;
  execPath: string;
};

export type StdioMode = 'pipe' | 'inherit' | 'ignore';
export type Stdio = [StdioMode, StdioMode, StdioMode];

export type SpawnOptions = {
  cwd?: unknown;
  env?: Record<string, unknown>;
  stdio?: unknown;
  shell?: unknown;
  timeout?: unknown;
  killSignal?: unknown;
  maxBuffer?: unknown;
  input?: unknown;
  encoding?: unknown;
  signal?: AbortSignal;
};

/** A request ready for the host, with what the parent does with the child's streams. */
export type Prepared = { spec: ChildSpec; stdio: Stdio; file: string; spawnargs: string[]; cwdMissing: boolean };

/** Output kept when no maxBuffer is asked for (async spawn keeps everything, up to the host's own cap). */
export const UNLIMITED_BUFFER = 64 * 1024 * 1024;
export const DEFAULT_MAX_BUFFER = 1024 * 1024;

/** Node's (file, args?, options?) overload: args may be left out. */
export function splitArgs(args: unknown, options: unknown): { args: string[]; options: SpawnOptions } {
  if (Array.isArray(args)) return { args: args.map(String), options: optionsOf(options) };
  if (args == null) return { args: [], options: optionsOf(options) };
  if (typeof args === 'object') return { args: [], options: optionsOf(args) };
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "args" argument must be an instance of Array. Received type ${typeof args}`);
}

function optionsOf(value: unknown): SpawnOptions {
  if (value == null) return {};
  if (typeof value !== 'object') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object. Received type ${typeof value}`);
  return value as SpawnOptions;
}

/** The spec for running `file` with `args` (through the shell when options.shell is set, as Node joins them). */
export function prepare(context: ChildContext, file: unknown, args: string[], options: SpawnOptions, defaults: { stdio: Stdio; maxBuffer: number }): Prepared {
  if (typeof file !== 'string' || file === '') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "file" argument must be of type string and not empty. Received ${JSON.stringify(file)}`);
  }
  const cwd = options.cwd == null ? context.cwd() : pathModule().resolve(context.cwd(), cwdText(options.cwd));
  const command = file === context.execPath ? 'node' : file;
  const useShell = options.shell !== undefined && options.shell !== false;
  const spec: ChildSpec = {
    command: useShell ? [command, ...args].join(' ') : command,
    args: useShell ? null : args,
    cwd,
    env: environment(options.env ?? context.env()),
    stdin: '',
    timeoutMs: milliseconds(options.timeout),
    killSignal: signalOption(options.killSignal),
    maxBuffer: options.maxBuffer == null ? defaults.maxBuffer : bufferSize(options.maxBuffer),
  };
  const stdio = stdioOf(options.stdio, defaults.stdio);
  if (stdio[0] === 'inherit') spec.stdin = context.stdin();
  return { spec, stdio, file, spawnargs: [file, ...args], cwdMissing: !context.isDirectory(cwd) };
}

function cwdText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && 'pathname' in value) return decodeURIComponent(String((value as URL).pathname));
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.cwd" property must be of type string or an instance of URL. Received type ${typeof value}`);
}

/** Node passes each value as a string and leaves out undefined ones. */
function environment(env: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = String(value);
  return out;
}

function milliseconds(value: unknown): number {
  if (value == null) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "timeout" is out of range. It must be an unsigned integer. Received ${String(value)}`);
  }
  return value;
}

function bufferSize(value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "options.maxBuffer" is out of range. It must be a positive number. Received ${String(value)}`);
  }
  return Math.min(value, UNLIMITED_BUFFER);
}

/** A signal option or kill() argument as its name; throws Node's error for an unknown one. */
export function signalOption(value: unknown): string {
  if (value == null) return 'SIGTERM';
  if (typeof value === 'string' && value in SIGNALS) return value;
  if (typeof value === 'number') {
    const name = Object.keys(SIGNALS).find((key) => SIGNALS[key] === value);
    if (name) return name;
  }
  throw nodeError(TypeError, 'ERR_UNKNOWN_SIGNAL', `Unknown signal: ${String(value)}`);
}

function stdioOf(value: unknown, defaults: Stdio): Stdio {
  if (value == null) return defaults;
  if (typeof value === 'string') {
    const mode = modeOf(value, 0);
    return [mode, mode, mode];
  }
  if (!Array.isArray(value)) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'stdio' is invalid. Received ${String(value)}`);
  return [modeOf(value[0], 0), modeOf(value[1], 1), modeOf(value[2], 2)];
}

/** 'inherit', the parent's own fd or stream: inherited; 'ignore': dropped; anything else ('pipe', 'overlapped', 'ipc', unset): piped. */
function modeOf(value: unknown, fd: number): StdioMode {
  if (value === 'inherit' || value === fd || value === 0 || value === 1 || value === 2) return 'inherit';
  if (typeof value === 'object' && value !== null && typeof (value as { fd?: unknown }).fd === 'number') return 'inherit';
  if (value === 'ignore') return 'ignore';
  return 'pipe';
}
