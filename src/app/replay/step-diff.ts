// A step's change as diff lines, the way the Changes tab shows a file's change (the `diff` package's hunks).
import { structuredPatch } from 'diff';
import type { DiffLine } from '../../store';

const MAX_LINES = 2000;

/** The unified diff of `before` (null: the file did not exist) to `after` as lines with their kind. */
export function stepDiffLines(path: string, before: string | null, after: string): DiffLine[] {
  const patch = structuredPatch(path, path, before ?? '', after, '', '', { context: 3 });
  const lines: DiffLine[] = [];
  for (const hunk of patch.hunks) {
    lines.push({ kind: 'hunk', text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
    for (const line of hunk.lines) {
      if (line.startsWith('\\')) continue;
      lines.push({ kind: line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : 'ctx', text: line.slice(1) });
    }
    if (lines.length >= MAX_LINES) break;
  }
  return lines.slice(0, MAX_LINES);
}
