// The host's check of a child-process request from the guest: every field's type and size, before anything runs.
// A bad request is refused with a message naming the field, never half-run.

import { SIGNALS, type ChildSpec } from './messages';

const MAX_COMMAND_CHARS = 256 * 1024;
const MAX_ARGS = 10_000;
const MAX_ARG_CHARS = 256 * 1024;
const MAX_ENV_ENTRIES = 10_000;
const MAX_ENV_CHARS = 1024 * 1024;
const MAX_STDIN_CHARS = 64 * 1024 * 1024;
const MAX_TIMEOUT_MS = 2 ** 31 - 1;
/** The most output kept of one stream, whatever maxBuffer the guest asks for. */
export const MAX_OUTPUT_CHARS = 64 * 1024 * 1024;

/** The request's spec, checked; a string says what is wrong with it. */
export function checkSpec(value: unknown): ChildSpec | string {
  if (typeof value !== 'object' || value === null) return 'the request is not an object';
  const spec = value as Record<string, unknown>;
  const { command, args, cwd, env, stdin, timeoutMs, killSignal, maxBuffer } = spec;
  if (typeof command !== 'string' || command.length === 0 || command.length > MAX_COMMAND_CHARS) return 'command must be a non-empty string';
  if (command.includes('\0')) return 'command must not contain null bytes';
  if (args !== null) {
    if (!Array.isArray(args) || args.length > MAX_ARGS) return `args must be an array of at most ${MAX_ARGS} strings`;
    if (!args.every((arg) => typeof arg === 'string' && arg.length <= MAX_ARG_CHARS && !arg.includes('\0'))) return 'every argument must be a string without null bytes';
  }
  if (typeof cwd !== 'string' || !cwd.startsWith('/') || cwd.length > 4096) return 'cwd must be an absolute path';
  const checkedEnv = checkEnv(env);
  if (typeof checkedEnv === 'string') return checkedEnv;
  if (typeof stdin !== 'string' || stdin.length > MAX_STDIN_CHARS) return 'stdin must be a string of at most 64 MB';
  if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0 && timeoutMs <= MAX_TIMEOUT_MS)) return 'timeout must be a number of milliseconds';
  if (typeof killSignal !== 'string' || !(killSignal in SIGNALS)) return `killSignal must be one of ${Object.keys(SIGNALS).join(', ')}`;
  if (typeof maxBuffer !== 'number' || !(maxBuffer >= 0)) return 'maxBuffer must be a non-negative number';
  return {
    command,
    args: args === null ? null : (args as string[]),
    cwd,
    env: checkedEnv,
    stdin,
    timeoutMs,
    killSignal,
    maxBuffer: Math.min(maxBuffer, MAX_OUTPUT_CHARS),
  };
}

function checkEnv(env: unknown): Record<string, string> | string {
  if (typeof env !== 'object' || env === null || Array.isArray(env)) return 'env must be an object of strings';
  const entries = Object.entries(env as Record<string, unknown>);
  if (entries.length > MAX_ENV_ENTRIES) return `env must have at most ${MAX_ENV_ENTRIES} entries`;
  let chars = 0;
  const checked: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) return `env entry ${JSON.stringify(name)} must be a string`;
    chars += name.length + value.length;
    checked[name] = value;
  }
  if (chars > MAX_ENV_CHARS) return 'env must hold at most 1 MB';
  return checked;
}

/** A signal argument of kill(): its name, or undefined when it names no signal. */
export function signalName(value: unknown): string | undefined {
  if (typeof value === 'string') return value in SIGNALS ? value : undefined;
  if (typeof value === 'number') return Object.keys(SIGNALS).find((name) => SIGNALS[name] === value);
  return undefined;
}
