// What changed in the workspace since the imported baseline, and the same as a patch `git apply` accepts.
import { structuredPatch } from 'diff';
import type { FileChange, FileMap } from '../types';
import { sameBytes } from '../objects/bytes';

const BINARY_SNIFF_BYTES = 8000; // what git looks at to decide "binary"

/** Added, modified and deleted files between two workspaces, sorted by path. Unchanged files are left out. */
export function diffWorkspaces(baseline: FileMap, current: FileMap): FileChange[] {
  const changes: FileChange[] = [];
  const paths = new Set([...baseline.keys(), ...current.keys()]);
  for (const path of [...paths].sort()) {
    const before = baseline.get(path);
    const after = current.get(path);
    if (before && after && sameBytes(before, after)) continue;
    const status = !before ? 'added' : !after ? 'deleted' : 'modified';
    const oldText = before && decodeText(before);
    const newText = after && decodeText(after);
    const binary = oldText === null || newText === null;
    const change: FileChange = { path, status, binary };
    if (!binary) {
      if (oldText !== undefined) change.oldText = oldText;
      if (newText !== undefined) change.newText = newText;
    }
    changes.push(change);
  }
  return changes;
}

/**
 * A git-style unified diff of `changes`. Binary files cannot be expressed without git's object ids, so they are
 * listed above the first diff (where `git apply` ignores text) as "Binary files a/x and b/x differ".
 */
export function formatPatch(changes: FileChange[]): string {
  const binary = changes.filter((c) => c.binary);
  const text = changes.filter((c) => !c.binary);
  const parts: string[] = [];
  if (binary.length) {
    parts.push(
      `Binary files changed (not included in this patch; take them from the workspace zip):\n` +
        binary.map((c) => `${binaryLine(c)}\n`).join('') +
        '\n',
    );
  }
  for (const change of text) parts.push(formatFileDiff(change));
  return parts.join('');
}

function formatFileDiff(change: FileChange): string {
  const a = quotePath(`a/${change.path}`);
  const b = quotePath(`b/${change.path}`);
  let out = `diff --git ${a} ${b}\n`;
  if (change.status === 'added') out += 'new file mode 100644\n';
  if (change.status === 'deleted') out += 'deleted file mode 100644\n';
  const oldText = change.oldText ?? '';
  const newText = change.newText ?? '';
  // An empty file added or deleted has no hunks: git wants only the header then.
  if (oldText === newText) return out;
  out += `--- ${change.status === 'added' ? '/dev/null' : a}\n`;
  out += `+++ ${change.status === 'deleted' ? '/dev/null' : b}\n`;
  const { hunks } = structuredPatch(change.path, change.path, oldText, newText, undefined, undefined, { context: 3 });
  for (const hunk of hunks) {
    out += `@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@\n`;
    out += hunk.lines.map((line) => `${line}\n`).join('');
  }
  return out;
}

function binaryLine(change: FileChange): string {
  const a = change.status === 'added' ? '/dev/null' : quotePath(`a/${change.path}`);
  const b = change.status === 'deleted' ? '/dev/null' : quotePath(`b/${change.path}`);
  return `Binary files ${a} and ${b} differ`;
}

// Git's hunk ranges: a count of 0 names the line before the (empty) range, and a count of 1 is left out.
function range(start: number, lines: number): string {
  if (lines === 0) return `${start - 1},0`;
  return lines === 1 ? `${start}` : `${start},${lines}`;
}

// Git C-quotes names with quotes, backslashes or control characters; everything else (spaces, UTF-8) goes as is.
function quotePath(path: string): string {
  if (!/["\\\x00-\x1f\x7f]/.test(path)) return path;
  const escaped = path.replace(/["\\\x00-\x1f\x7f]/g, (ch) => {
    const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
    return named[ch] ?? `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${escaped}"`;
}

/** The text of `bytes`, or null when they are binary (a NUL byte early on, or not UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
