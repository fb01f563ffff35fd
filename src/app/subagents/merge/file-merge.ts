// The 3-way merge of one file: its bytes at the fork point (base), in the worker's tree and in the live tree now
// (null: absent). Text is merged line by line with node-diff3; changes on both sides to the same lines conflict
// unless they are identical. A file that is not UTF-8 text, an add on both sides with different content, and a
// delete on one side with a change on the other conflict as one hunk covering the whole file.

import { diff3Merge } from 'node-diff3';
import type { TaskConflictHunk } from '../../../ai/types';

export type FileMergeOutcome =
  /** The live file is already what the merge gives: nothing to write. */
  | { kind: 'keep' }
  | { kind: 'write'; data: Uint8Array }
  | { kind: 'remove' }
  | { kind: 'conflict'; hunks: TaskConflictHunk[] };

/** Which side a conflicting hunk takes when the merge must not conflict (planApply). */
export type ConflictSide = 'worker' | 'live';

/** Merges the worker's change to one file into the live file; `side` resolves conflicts, else they are reported. */
export function mergeFile(base: Uint8Array | null, worker: Uint8Array | null, live: Uint8Array | null, side?: ConflictSide): FileMergeOutcome {
  if (sameBytes(worker, live) || sameBytes(worker, base)) return { kind: 'keep' };
  if (sameBytes(live, base)) return take(worker);
  const texts = [base, worker, live].map(decodeText);
  const [baseText, workerText, liveText] = texts;
  if (base === null || worker === null || live === null || texts.some((text) => text === undefined)) {
    if (side !== undefined) return side === 'worker' ? take(worker) : { kind: 'keep' };
    return { kind: 'conflict', hunks: [{ baseStart: 1, base: wholeText(base, baseText), live: wholeText(live, liveText), worker: wholeText(worker, workerText) }] };
  }
  const regions = diff3Merge(lines(workerText!), lines(baseText!), lines(liveText!), { excludeFalseConflicts: true });
  const merged: string[] = [];
  const hunks: TaskConflictHunk[] = [];
  for (const region of regions) {
    if (region.ok) merged.push(...region.ok);
    else if (region.conflict) {
      const { a, b, o, oIndex } = region.conflict;
      if (side === undefined) hunks.push({ baseStart: oIndex + 1, base: o.join(''), live: b.join(''), worker: a.join('') });
      else merged.push(...(side === 'worker' ? a : b));
    }
  }
  if (hunks.length > 0) return { kind: 'conflict', hunks };
  const data = new TextEncoder().encode(merged.join(''));
  return sameBytes(data, live) ? { kind: 'keep' } : { kind: 'write', data };
}

/** The text of a file that is UTF-8; undefined for one that is not. */
export function decodeText(bytes: Uint8Array | null): string | undefined {
  if (bytes === null) return '';
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function take(worker: Uint8Array | null): FileMergeOutcome {
  return worker === null ? { kind: 'remove' } : { kind: 'write', data: worker };
}

/** Lines with their endings kept, so joining them gives the text back exactly. */
function lines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

function wholeText(bytes: Uint8Array | null, text: string | undefined): string {
  if (bytes === null) return '';
  return text ?? `[binary file, ${bytes.byteLength} bytes]`;
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
