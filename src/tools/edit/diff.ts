// Unified diff of an edit for the result's `details`. Large files differ in a small window, so only that window
// (plus context) is handed to the diff algorithm and its hunk line numbers are shifted back into place.
import { formatPatch, structuredPatch } from 'diff';

const CONTEXT_LINES = 3;

export interface EditDiff {
  diff: string;
  /** 1-based line number, in the new file, of the first changed line; null when nothing changed. */
  firstChangedLine: number | null;
}

/** The unified diff turning `before` into `after`, labelled with `path`. */
export function unifiedDiff(path: string, before: string, after: string): EditDiff {
  if (before === after) return { diff: '', firstChangedLine: null };
  const prefix = commonPrefixLength(before, after);
  const suffix = commonSuffixLength(before, after, Math.min(before.length, after.length) - prefix);

  const windowStart = startOfLinesBefore(before, prefix, CONTEXT_LINES + 1);
  const extension = lengthOfLinesAfter(before, before.length - suffix, CONTEXT_LINES + 1);
  const oldWindow = before.slice(windowStart, before.length - suffix + extension);
  const newWindow = after.slice(windowStart, after.length - suffix + extension);
  const skippedLines = countNewlines(before, 0, windowStart);

  const patch = structuredPatch(path, path, oldWindow, newWindow, undefined, undefined, { context: CONTEXT_LINES });
  for (const hunk of patch.hunks) {
    hunk.oldStart += skippedLines;
    hunk.newStart += skippedLines;
  }
  return { diff: formatPatch(patch), firstChangedLine: countNewlines(after, 0, prefix) + 1 };
}

// Comparing whole blocks with === runs natively; a char-by-char loop over megabytes does not.
function commonPrefixLength(a: string, b: string): number {
  const shortest = Math.min(a.length, b.length);
  let length = 0;
  for (let block = 1 << 16; block >= 1; block >>= 1) {
    while (length + block <= shortest && a.slice(length, length + block) === b.slice(length, length + block)) {
      length += block;
    }
  }
  return length;
}

function commonSuffixLength(a: string, b: string, max: number): number {
  let length = 0;
  for (let block = 1 << 16; block >= 1; block >>= 1) {
    while (
      length + block <= max &&
      a.slice(a.length - length - block, a.length - length) === b.slice(b.length - length - block, b.length - length)
    ) {
      length += block;
    }
  }
  return length;
}

function startOfLinesBefore(text: string, offset: number, lines: number): number {
  let lineStart = offset > 0 ? text.lastIndexOf('\n', offset - 1) + 1 : 0;
  for (let i = 1; i < lines && lineStart > 0; i++) {
    lineStart = lineStart >= 2 ? text.lastIndexOf('\n', lineStart - 2) + 1 : 0;
  }
  return lineStart;
}

function lengthOfLinesAfter(text: string, offset: number, lines: number): number {
  let at = offset;
  for (let i = 0; i < lines; i++) {
    const newline = text.indexOf('\n', at);
    if (newline === -1) return text.length - offset;
    at = newline + 1;
  }
  return at - offset;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let at = text.indexOf('\n', from);
  while (at !== -1 && at < to) {
    count++;
    at = text.indexOf('\n', at + 1);
  }
  return count;
}
