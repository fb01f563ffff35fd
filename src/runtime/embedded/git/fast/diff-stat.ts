// `git diff --stat` as git writes it when the lines fit in its 80 columns: each file's name, its count of changed
// lines and one `+`/`-` per line, then the summary. Wider stats (which git scales down) and binary files return null.
import type { FileDiff } from 'just-git/repo';

const WIDTH = 80;

/** The `--stat` text of `diffs` (in path order), or null (see the file comment). */
export function formatStat(diffs: readonly FileDiff[], anyBinary: boolean): string | null {
  if (anyBinary || diffs.some((diff) => diff.status === 'renamed')) return null;
  const rows = diffs.map((diff) => {
    let added = 0;
    let deleted = 0;
    for (const hunk of diff.hunks) for (const line of hunk.lines) line[0] === '+' ? added++ : line[0] === '-' ? deleted++ : 0;
    return { name: diff.path, added, deleted };
  });
  const nameWidth = Math.max(...rows.map((row) => row.name.length));
  const maxChange = Math.max(...rows.map((row) => row.added + row.deleted));
  const numberWidth = String(maxChange).length;
  if (nameWidth + numberWidth + 6 + maxChange > WIDTH) return null;
  let out = '';
  for (const row of rows) {
    const total = row.added + row.deleted;
    out += ` ${row.name.padEnd(nameWidth)} | ${String(total).padStart(numberWidth)}${total ? ' ' : ''}${'+'.repeat(row.added)}${'-'.repeat(row.deleted)}\n`;
  }
  const insertions = rows.reduce((sum, row) => sum + row.added, 0);
  const deletions = rows.reduce((sum, row) => sum + row.deleted, 0);
  out += ` ${rows.length} file${rows.length === 1 ? '' : 's'} changed`;
  if (insertions || !deletions) out += `, ${insertions} insertion${insertions === 1 ? '' : 's'}(+)`;
  if (deletions || !insertions) out += `, ${deletions} deletion${deletions === 1 ? '' : 's'}(-)`;
  return `${out}\n`;
}
