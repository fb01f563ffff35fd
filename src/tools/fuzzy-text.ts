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
  if (!NON_ASCII.test(line)) return line.replace(TRAILING_WHITESPACE, '');
  let result = '';
  for (const codePoint of line) result += normalizeCodePoint(codePoint);
  return result.replace(TRAILING_WHITESPACE, '');
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

/** A text split into lines alongside its tolerant form, with offsets for mapping matches back. */
export class TolerantText {
  readonly lines: string[];
  readonly lineStarts: number[];
  readonly normalizedLines: string[];
  readonly normalizedStarts: number[];
  readonly normalized: string;

  constructor(readonly original: string) {
    this.lines = original.split('\n');
    this.lineStarts = offsetsOf(this.lines);
    this.normalizedLines = this.lines.map(normalizeLine);
    this.normalizedStarts = offsetsOf(this.normalizedLines);
    this.normalized = this.normalizedLines.join('\n');
  }

  /** Every start offset of `needle` (already tolerant) in the tolerant view, up to `max`. */
  occurrences(needle: string, max: number): number[] {
    const found: number[] = [];
    let at = this.normalized.indexOf(needle);
    while (at !== -1 && found.length < max) {
      found.push(at);
      at = this.normalized.indexOf(needle, at + 1);
    }
    return found;
  }

  /** The original [start, end) of the tolerant range [from, to). */
  toOriginalRange(from: number, to: number): { start: number; end: number } {
    const startLine = lineAt(this.normalizedStarts, from);
    const startColumn = from - this.normalizedStarts[startLine];
    const endLine = lineAt(this.normalizedStarts, to);
    const endColumn = to - this.normalizedStarts[endLine];
    const startLineText = this.lines[startLine];
    const endLineText = this.lines[endLine];

    const start =
      startColumn === this.normalizedLines[startLine].length
        ? this.lineStarts[startLine] + startLineText.length
        : this.lineStarts[startLine] + originalColumn(startLineText, startColumn, false);
    // A match that runs to the end of a line's visible text takes that line's trailing whitespace with it:
    // the oldText covered the whole line, so its replacement should too.
    const end =
      endColumn === 0
        ? this.lineStarts[endLine]
        : endColumn === this.normalizedLines[endLine].length
          ? this.lineStarts[endLine] + endLineText.length
          : this.lineStarts[endLine] + originalColumn(endLineText, endColumn, true);
    return { start, end };
  }

  /** 1-based line number of an offset in the tolerant view. */
  lineNumberOfNormalized(offset: number): number {
    return lineAt(this.normalizedStarts, offset) + 1;
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
