// How rg and grep print what they found in each file: matching lines with optional file names, line numbers and
// context (":" on a match, "-" on context, "--" between groups, also between files), counts, file names only, or only
// the matched parts. A line is the text between \n characters (a final \n ends the last line, it does not start a new
// one); a \r before the \n is part of the line and is printed.

import type { CommandOutput } from './command-output';
import { hasEscapes } from './search-input';
import type { LineMatcher } from '../../search/line-matcher';

export type PrintMode =
  | 'lines'
  | 'count'
  | 'count-matches'
  | 'files-with-matches'
  | 'files-without-match'
  | 'only-matching'
  | 'quiet';

export type PrintOptions = {
  mode: PrintMode;
  invert: boolean;
  withFilename: boolean;
  lineNumbers: boolean;
  before: number;
  after: number;
  /** Selected lines per file at most (grep and rg -m). */
  maxCount: number;
  /** Print "name:0" for files without a selected line (grep -c does, rg -c does not). */
  countZeros: boolean;
};

/**
 * A file's text (invalid bytes as surrogate escapes, see search-input.ts). With `holdBadLines`, a line holding an
 * invalid byte is not printed (grep's way with a file it takes for binary): `binaryMatch` is called after the file's
 * lines instead when such a line was a match.
 */
export type FileText = { name: string; text: string; holdBadLines?: boolean };

export class LinePrinter {
  private printedGroup = false;

  constructor(
    private readonly out: CommandOutput,
    private readonly matcher: LineMatcher,
    /** The pattern with the global flag, for -o and --count-matches. */
    private readonly everyMatch: RegExp,
    private readonly options: PrintOptions,
  ) {}

  /**
   * Prints what the options ask for about `file`; returns how many lines were selected. `binaryMatch`, when given,
   * is called instead of printing lines (the file is binary and had a match).
   */
  file(file: FileText, binaryMatch?: () => void): number {
    const { mode, invert } = this.options;
    const lines = !invert && !this.matcher.anyLine(file.text) ? [] : splitLines(file.text);
    const selected = this.matcher.matchingLines(lines, this.options.maxCount, invert);
    switch (mode) {
      case 'quiet':
        break;
      case 'files-with-matches':
        if (selected.length > 0) this.out.write(`${file.name}\n`);
        break;
      case 'files-without-match':
        if (selected.length === 0) this.out.write(`${file.name}\n`);
        break;
      case 'count':
        if (selected.length > 0 || this.options.countZeros) this.printCount(file.name, selected.length);
        break;
      case 'count-matches': {
        const count = selected.reduce((sum, index) => sum + this.matchesIn(lines[index]).length, 0);
        if (count > 0 || this.options.countZeros) this.printCount(file.name, count);
        break;
      }
      case 'only-matching':
        if (binaryMatch && !file.holdBadLines && selected.length > 0) binaryMatch();
        else if (!invert) this.printEveryMatch(file, lines, selected, binaryMatch);
        break;
      case 'lines':
        if (binaryMatch && !file.holdBadLines && selected.length > 0) binaryMatch();
        else this.printLines(file, lines, selected, binaryMatch);
        break;
    }
    return selected.length;
  }

  private printCount(name: string, count: number): void {
    this.out.write(this.options.withFilename ? `${name}:${count}\n` : `${count}\n`);
  }

  private printLines(file: FileText, lines: string[], selected: number[], binaryMatch?: () => void): void {
    const { before, after } = this.options;
    const shown = new Map<number, boolean>(); // line -> selected
    for (const index of selected) {
      for (let i = Math.max(0, index - before); i <= Math.min(lines.length - 1, index + after); i++) {
        if (!shown.has(i)) shown.set(i, false);
      }
    }
    for (const index of selected) shown.set(index, true);
    const contextual = before > 0 || after > 0;
    let previous = -2;
    let heldMatch = false;
    for (const index of [...shown.keys()].sort((a, b) => a - b)) {
      const isMatch = shown.get(index) === true;
      if (file.holdBadLines && hasEscapes(lines[index])) {
        heldMatch ||= isMatch;
        continue;
      }
      if (contextual && (previous === -2 ? this.printedGroup : index > previous + 1)) this.out.write('--\n');
      this.printLine(file, index, lines[index], isMatch ? ':' : '-');
      previous = index;
      this.printedGroup = true;
    }
    if (heldMatch) binaryMatch?.();
  }

  private printLine(file: FileText, index: number, line: string, separator: string): void {
    this.out.write(`${this.prefix(file.name, index, separator)}${line}\n`);
  }

  private printEveryMatch(file: FileText, lines: string[], selected: number[], binaryMatch?: () => void): void {
    let held = false;
    for (const index of selected) {
      for (const match of this.matchesIn(lines[index])) {
        if (file.holdBadLines && hasEscapes(match)) {
          held = true;
          continue;
        }
        this.out.write(`${this.prefix(file.name, index, ':')}${match}\n`);
      }
    }
    if (held) binaryMatch?.();
  }

  private prefix(name: string, index: number, separator: string): string {
    let prefix = this.options.withFilename ? `${name}${separator}` : '';
    if (this.options.lineNumbers) prefix += `${index + 1}${separator}`;
    return prefix;
  }

  /** The non-empty matches in `line`, left to right. */
  private matchesIn(line: string): string[] {
    const found: string[] = [];
    const regex = this.everyMatch;
    regex.lastIndex = 0;
    for (let match = regex.exec(line); match !== null; match = regex.exec(line)) {
      if (match[0] === '') regex.lastIndex++;
      else found.push(match[0]);
    }
    return found;
  }
}

/** The lines of `text`: split at \n, a final \n ending the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
