// Terminal text broken at word boundaries for a given width (xterm.js itself breaks a long line at the last
// column, mid-word). A word longer than the width is cut; existing line breaks are kept.

/** `text` with line breaks (\r\n) inserted between words so that no line is longer than `columns`. */
export function wrapWords(text: string, columns: number): string {
  const width = Math.max(1, Math.floor(columns));
  return text
    .split('\n')
    .map((line) => wrapLine(line, width))
    .join('\r\n');
}

function wrapLine(line: string, width: number): string {
  const rows: string[] = [];
  let row = '';
  for (const word of line.split(' ')) {
    for (const piece of pieces(word, width)) {
      if (row === '') row = piece;
      else if (row.length + 1 + piece.length <= width) row += ` ${piece}`;
      else {
        rows.push(row);
        row = piece;
      }
    }
  }
  rows.push(row);
  return rows.join('\r\n');
}

function pieces(word: string, width: number): string[] {
  if (word.length <= width) return [word];
  const out: string[] = [];
  for (let i = 0; i < word.length; i += width) out.push(word.slice(i, i + width));
  return out;
}
