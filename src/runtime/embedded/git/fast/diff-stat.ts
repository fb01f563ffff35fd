// `git diff --stat` as git writes it when the lines fit in its 80 columns: each file's name (a rename as
// `dir/{old => new}`), its count of changed lines and one `+`/`-` per line (`Bin a -> b bytes` for a binary file),
// then the summary. Wider stats, which git scales down, return null.

/** One file of a stat: its name as shown, lines added and deleted, and its sizes when it is binary. */
export type StatRow = { name: string; added: number; deleted: number; binary?: { before: number; after: number } };

const WIDTH = 80;

/** The `--stat` text of `rows` (in path order), or null (see the file comment). */
export function formatStat(rows: readonly StatRow[]): string | null {
  const nameWidth = Math.max(...rows.map((row) => row.name.length));
  const maxChange = Math.max(...rows.map((row) => row.added + row.deleted));
  const numberWidth = Math.max(String(maxChange).length, rows.some((row) => row.binary) ? 3 : 0);
  if (nameWidth + numberWidth + 6 + maxChange > WIDTH) return null;
  let out = '';
  for (const row of rows) {
    const total = row.added + row.deleted;
    if (row.binary) out += ` ${row.name.padEnd(nameWidth)} | Bin ${row.binary.before} -> ${row.binary.after} bytes\n`;
    else out += ` ${row.name.padEnd(nameWidth)} | ${String(total).padStart(numberWidth)}${total ? ' ' : ''}${'+'.repeat(row.added)}${'-'.repeat(row.deleted)}\n`;
  }
  const insertions = rows.reduce((sum, row) => sum + row.added, 0);
  const deletions = rows.reduce((sum, row) => sum + row.deleted, 0);
  return `${out}${shortStat(rows.length, insertions, deletions)}\n`;
}

/** git's summary line: ` 2 files changed, 3 insertions(+), 1 deletion(-)`. */
export function shortStat(files: number, insertions: number, deletions: number): string {
  let out = ` ${files} file${files === 1 ? '' : 's'} changed`;
  if (insertions || !deletions) out += `, ${insertions} insertion${insertions === 1 ? '' : 's'}(+)`;
  if (deletions || !insertions) out += `, ${deletions} deletion${deletions === 1 ? '' : 's'}(-)`;
  return out;
}

/** git's test: a NUL byte in the first 8,000 bytes makes a file binary. */
export function isBinary(data: Uint8Array): boolean {
  return data.subarray(0, 8000).includes(0);
}
