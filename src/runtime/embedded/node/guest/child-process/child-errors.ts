// The errors child_process gives, shaped as Node's: a spawn that found no command, and a command that failed.

import type { ChildOutcome } from '../../subprocess/messages';
import { systemError } from '../node-error';

/** spawn's ENOENT (no such command, or a cwd that is no directory). */
export function spawnError(syscall: 'spawn' | 'spawnSync', file: string, spawnargs: string[]): Error {
  const error = systemError('ENOENT', `${syscall} ${file} ENOENT`, `${syscall} ${file}`, file) as Error & Record<string, unknown>;
  error.spawnargs = spawnargs.slice(1);
  return error;
}

/** ENOBUFS or ETIMEDOUT, as a sync child's `error`. */
export function syncFailure(outcome: ChildOutcome, timedOut: boolean, syscall: string): Error | undefined {
  if (outcome.error?.code === 'ENOBUFS') return systemError('ENOBUFS', `${syscall} ENOBUFS`, syscall);
  if (timedOut) return Object.assign(systemError('ETIMEDOUT', `${syscall} ETIMEDOUT`, syscall), { errno: -110 });
  return undefined;
}

/** exec's and execSync's "Command failed" error: the command, then what it printed on stderr. */
export function commandFailed(cmd: string, stderr: string, fields: Record<string, unknown>): Error {
  const error = new Error(`Command failed: ${cmd}${stderr.length > 0 ? `\n${stderr}` : ''}`);
  return Object.assign(error, fields);
}
