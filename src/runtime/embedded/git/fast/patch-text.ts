// Two corrections to the patch text just-git's formatter writes, so that it is git's byte for byte: its lines lose
// a carriage return before the line end (a CRLF file's lines are shown without it), and a mode change (chmod +x)
// is left out. The hunks' positions and the +/-/space marks are kept; each line's text is taken again from the file,
// and git's "old mode"/"new mode" lines are put in.

/** One changed file as the patch should show it. */
export type PatchFile = { path: string; before: { data: Uint8Array; mode: number } | null; after: { data: Uint8Array; mode: number } | null };

const decoder = new TextDecoder();

/** `patch` (just-git's, for `files` in the same order) corrected as the file comment says. */
export function correctPatch(patch: string, files: readonly PatchFile[]): string {
  const chunks = new Map<string, string>();
  for (const chunk of patch.split(/^(?=diff --git )/m)) {
    const header = /^diff --git a\/(.*) b\/(.*)\n/.exec(chunk);
    if (header) chunks.set(header[2], chunk);
  }
  let out = '';
  for (const file of files) {
    const modeChanged = file.before !== null && file.after !== null && file.before.mode !== file.after.mode;
    let chunk = chunks.get(file.path);
    if (chunk === undefined) {
      if (modeChanged) out += `diff --git a/${file.path} b/${file.path}\nold mode ${file.before!.mode.toString(8)}\nnew mode ${file.after!.mode.toString(8)}\n`;
      continue;
    }
    if (modeChanged) {
      const modes = `old mode ${file.before!.mode.toString(8)}\nnew mode ${file.after!.mode.toString(8)}\n`;
      chunk = chunk.replace(/\n(index [0-9a-f]+\.\.[0-9a-f]+) \d+\n/, `\n${modes}$1\n`);
    }
    out += retext(chunk, linesOf(file.before?.data), linesOf(file.after?.data));
  }
  return out;
}

/** The chunk with each hunk line's text taken from the files' own lines (carriage returns included). */
function retext(chunk: string, before: string[], after: string[]): string {
  const lines = chunk.split('\n');
  let old = -1;
  let now = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      old = Number(hunk[1]) - 1;
      now = Number(hunk[2]) - 1;
      // A hunk that starts at line 0 (an empty side) counts from there.
      if (old < 0) old = 0;
      if (now < 0) now = 0;
      continue;
    }
    if (old < 0) continue; // the header
    if (line.startsWith(' ')) lines[i] = ` ${before[old++] ?? line.slice(1)}`, now++;
    else if (line.startsWith('-')) lines[i] = `-${before[old++] ?? line.slice(1)}`;
    else if (line.startsWith('+')) lines[i] = `+${after[now++] ?? line.slice(1)}`;
  }
  return lines.join('\n');
}

/** A file's lines without their final line feed (a carriage return before it stays). */
function linesOf(data: Uint8Array | undefined): string[] {
  if (!data) return [];
  const text = decoder.decode(data);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
