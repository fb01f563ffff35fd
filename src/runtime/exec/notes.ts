// The lines a runtime appends to a command's output when it had to stop it, shared so both runtimes say the same.

import type { StopReason } from './signal';

/** The note appended to `output` when a command was stopped (its exitCode is then null). */
export function stopNote(reason: StopReason, timeoutMs: number | undefined): string {
  if (reason === 'timeout') {
    const seconds = timeoutMs === undefined ? 'its time limit' : `${Math.round(timeoutMs / 100) / 10} s`;
    return `[command timed out after ${seconds} and was stopped]`;
  }
  return '[command aborted]';
}

/** Joins output and a note on its own line. */
export function appendNote(output: string, note: string): string {
  if (output === '') return note;
  return output.endsWith('\n') ? `${output}${note}` : `${output}\n${note}`;
}
