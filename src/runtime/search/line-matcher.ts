// A regular expression tested on each line of a text, the way grep does (a line is the text between \n characters;
// a \r before the \n stays part of it). Whether a text has a matching line at all is answered by one scan of the
// whole text with the line-confined form of the expression, so a file without a match is never split into lines.

import { lineConfinedSource } from './line-confined';

export class LineMatcher {
  private readonly exact: RegExp;
  private readonly scan: RegExp | null;

  /** Throws on an invalid expression (the caller reports it). */
  constructor(source: string, flags: string) {
    const plain = flags.replace(/[gy]/g, '');
    this.exact = new RegExp(source, plain);
    this.scan = compileScan(source, plain);
  }

  /** True when `line` (one line, without its \n) matches. */
  test(line: string): boolean {
    return this.exact.test(line);
  }

  /** True when some line of `text` matches. */
  anyLine(text: string): boolean {
    const scan = this.scan;
    if (scan === null) return text.split('\n').some((line) => this.exact.test(line));
    let from = 0;
    while (from <= text.length) {
      scan.lastIndex = from;
      const found = scan.exec(text);
      if (found === null) return false;
      const start = found.index === 0 ? 0 : text.lastIndexOf('\n', found.index - 1) + 1;
      let end = text.indexOf('\n', found.index);
      if (end === -1) end = text.length;
      // The scan is built to agree with the per-line test; checking the line keeps any disagreement harmless.
      if (this.exact.test(text.slice(start, end))) return true;
      from = end + 1;
    }
    return false;
  }

  /** 0-based numbers of the first `max` lines that match (with `invert`, that do not match). */
  matchingLines(lines: readonly string[], max: number, invert = false): number[] {
    const found: number[] = [];
    for (let i = 0; i < lines.length && found.length < max; i++) {
      if (this.exact.test(lines[i]) !== invert) found.push(i);
    }
    return found;
  }
}

function compileScan(source: string, flags: string): RegExp | null {
  if (!/^[iud]*$/.test(flags)) return null; // dotAll or multiline would let a match cross lines
  const confined = lineConfinedSource(source, flags.includes('u'));
  if (confined === null) return null;
  try {
    return new RegExp(confined, `${flags}g`);
  } catch {
    return null; // the rewrite made something the engine rejects (a quantified anchor): match line by line
  }
}
