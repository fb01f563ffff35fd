// The tolerant view of a text used when an edit's oldText does not match exactly: each line with smart quotes,
// dashes and unusual spaces made ASCII, compatibility forms decomposed (NFKD) and trailing whitespace dropped.
// Normalization is per code point, so any column of the tolerant view maps back to a column of the original line
// and a match can replace exactly the matched region, leaving every other byte untouched.

const CHARACTER_MAP: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'", '\u2032': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"', '\u00ab': '"', '\u00bb': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2015': '-', '\u2212': '-',
  '\u00a0': ' ', '\u2007': ' ', '\u202f': ' ', '\u3000': ' ', '\u205f': ' ', '\u200b': '', '\ufeff': '',
};

const codePointCache = new Map<string, string>();
const NON_ASCII = /[^\x00-\x7f]/;
const TRAILING_WHITESPACE = /\s+$/;

/** The tolerant form of one code point. */
export function normalizeCodePoint(codePoint: string): string {
  const cached = codePointCache.get(codePoint);
  if (cached !== undefined) return cached;
  let result = '';
  for (const part of codePoint.normalize('NFKD')) result += CHARACTER_MAP[part] ?? part;
  if (result.includes('\n')) result = result.replace(/\n/g, ' ');
  codePointCache.set(codePoint, result);
  return result;
}

/** The tolerant form of one line (no newline inside). */
export function normalizeLine(line: string): string {
  if (!NON_ASCII.test(line)) return trimTrailingAscii(line);
  let result = '';
  for (const codePoint of line) result += normalizeCodePoint(codePoint);
  return result.replace(TRAILING_WHITESPACE, '');
}

// The common case (ASCII, no trailing blank) returns the line itself without allocating.
function trimTrailingAscii(line: string): string {
  let end = line.length;
  while (end > 0 && isAsciiBlank(line.charCodeAt(end - 1))) end--;
  return end === line.length ? line : line.slice(0, end);
}

function isAsciiBlank(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** The tolerant form of a multi-line text, line by line. */
export function normalizeText(text: string): string {
  return text.split('\n').map(normalizeLine).join('\n');
}

/**
 * The column of `line` where tolerant column `column` falls. A column inside the expansion of one code point
 * (e.g. the "i" of "ﬁ" -> "fi") rounds down to that code point's start, or up to its end when `roundUp`.
 */
export function originalColumn(line: string, column: number, roundUp: boolean): number {
  if (!NON_ASCII.test(line)) return Math.min(column, line.length);
  let normalized = 0;
  let unit = 0;
  for (const codePoint of line) {
    if (normalized >= column) return unit;
    const width = normalizeCodePoint(codePoint).length;
    if (!roundUp && normalized + width > column) return unit;
    normalized += width;
    unit += codePoint.length;
    if (roundUp && normalized >= column) return unit;
  }
  return line.length;
}

/** Where a tolerant match lies: 0-based lines, columns in the tolerant lines, end exclusive. */
export interface TolerantMatch {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A text split into lines alongside its tolerant form, with offsets for mapping matches back. */
export class TolerantText {
  readonly lines: string[];
  readonly normalizedLines: string[];
  private starts: number[] | null = null;

  constructor(readonly original: string) {
    this.lines = original.split('\n');
    const ascii = !NON_ASCII.test(original);
    this.normalizedLines = ascii ? this.lines.map(trimTrailingAscii) : this.lines.map(normalizeLine);
  }

  /** Start offset of each original line. */
  get lineStarts(): number[] {
    this.starts ??= offsetsOf(this.lines);
    return this.starts;
  }

  /**
   * Every place the tolerant text `needle` occurs, up to `max`. Matching is line-wise, so no joined copy of the
   * file is built: the first needle line must end a line, middle lines equal whole lines, the last one start a line.
   */
  occurrences(needle: string, max: number): TolerantMatch[] {
    const parts = needle.split('\n');
    const lines = this.normalizedLines;
    const found: TolerantMatch[] = [];
    if (parts.length === 1) {
      for (let i = 0; i < lines.length && found.length < max; i++) {
        let at = lines[i].indexOf(needle);
        while (at !== -1 && found.length < max) {
          found.push({ startLine: i, startColumn: at, endLine: i, endColumn: at + needle.length });
          at = lines[i].indexOf(needle, at + 1);
        }
      }
      return found;
    }
    const first = parts[0];
    const last = parts[parts.length - 1];
    const span = parts.length - 1;
    for (let i = 0; i + span < lines.length && found.length < max; i++) {
      if (!lines[i].endsWith(first) || !lines[i + span].startsWith(last)) continue;
      let middle = true;
      for (let k = 1; k < span && middle; k++) middle = lines[i + k] === parts[k];
      if (!middle) continue;
      found.push({ startLine: i, startColumn: lines[i].length - first.length, endLine: i + span, endColumn: last.length });
    }
    return found;
  }

  /** The original [start, end) offsets of a tolerant match. */
  toOriginalRange(match: TolerantMatch): { start: number; end: number } {
    const { startLine, startColumn, endLine, endColumn } = match;
    const startLineText = this.lines[startLine];
    const endLineText = this.lines[endLine];
    const starts = this.lineStarts;

    const start =
      startColumn === this.normalizedLines[startLine].length
        ? starts[startLine] + startLineText.length
        : starts[startLine] + originalColumn(startLineText, startColumn, false);
    // A match that runs to the end of a line's visible text takes that line's trailing whitespace with it:
    // the oldText covered the whole line, so its replacement should too.
    const end =
      endColumn === 0
        ? starts[endLine]
        : endColumn === this.normalizedLines[endLine].length
          ? starts[endLine] + endLineText.length
          : starts[endLine] + originalColumn(endLineText, endColumn, true);
    return { start, end };
  }
}

/** Start offset of each line when `lines` are joined with "\n". */
export function offsetsOf(lines: string[]): number[] {
  const starts = new Array<number>(lines.length);
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    starts[i] = offset;
    offset += lines[i].length + 1;
  }
  return starts;
}

/** Index of the line containing `offset`, given sorted line start offsets. */
export function lineAt(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}
