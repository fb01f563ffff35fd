// Locates each requested edit in the original file (exact match first, then the tolerant view) and applies them
// all at once. Every failure names the edit by index and says what the model should do next.
import { diffArrays } from 'diff';
import { closestRegion, formatRegion } from './closest-region';
import { lineAt, normalizeText, offsetsOf, TolerantText } from './fuzzy-text';

export interface EditRequest {
  oldText: string;
  newText: string;
}

export interface LocatedEdit {
  index: number;
  start: number;
  end: number;
  newText: string;
  matchedBy: 'exact' | 'tolerant';
}

const MAX_LISTED_OCCURRENCES = 10;

/** Error thrown when one or more edits cannot be applied; `message` is written for the model. */
export class EditMatchError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n\n'));
    this.name = 'EditMatchError';
  }
}

/**
 * Finds every edit's region in `content` (LF line endings). All edits are matched against the same original text;
 * throws EditMatchError listing every edit that failed (not found, ambiguous, identical, overlapping).
 */
export function locateEdits(content: string, edits: EditRequest[]): LocatedEdit[] {
  const problems: string[] = [];
  const located: LocatedEdit[] = [];
  const lazy = new LazyViews(content);

  edits.forEach((edit, index) => {
    const label = `edits[${index}]`;
    const oldText = toLf(edit.oldText);
    const newText = toLf(edit.newText);
    if (oldText.length === 0) {
      problems.push(`${label}: oldText is empty. Give the exact existing text to replace (to replace the whole file, use the write tool).`);
      return;
    }
    if (oldText === newText) {
      problems.push(`${label}: oldText and newText are identical, so this edit changes nothing. Remove it or give the intended newText.`);
      return;
    }

    const exact = occurrencesOf(content, oldText, MAX_LISTED_OCCURRENCES + 1);
    if (exact.length === 1) {
      located.push({ index, start: exact[0], end: exact[0] + oldText.length, newText, matchedBy: 'exact' });
      return;
    }
    if (exact.length > 1) {
      problems.push(ambiguous(label, exact.map((at) => lazy.lineNumber(at)), exact.length, countAll(content, oldText)));
      return;
    }

    const tolerantOld = normalizeText(oldText);
    if (tolerantOld.trim().length > 0) {
      const tolerant = lazy.tolerant();
      const found = tolerant.occurrences(tolerantOld, MAX_LISTED_OCCURRENCES + 1);
      if (found.length === 1) {
        const { start, end } = tolerant.toOriginalRange(found[0]);
        const kept = keepUnchangedLines(content.slice(start, end), oldText, newText);
        located.push({ index, start, end, newText: kept, matchedBy: 'tolerant' });
        return;
      }
      if (found.length > 1) {
        const lines = found.map((match) => match.startLine + 1);
        problems.push(ambiguous(label, lines, found.length, found.length) +
          ' (matched after ignoring differences in whitespace, quotes and dashes)');
        return;
      }
    }
    problems.push(notFound(label, lazy.tolerant().lines, oldText));
  });

  problems.push(...overlapProblems(located, lazy));
  if (problems.length > 0) throw new EditMatchError(problems);
  return located;
}

/** `content` with every located edit applied (edits must not overlap). */
export function applyLocatedEdits(content: string, edits: LocatedEdit[]): string {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of ordered) {
    parts.push(content.slice(cursor, edit.start), edit.newText);
    cursor = edit.end;
  }
  parts.push(content.slice(cursor));
  return parts.join('');
}

/**
 * `newText` with each line the edit leaves as it was (equal in oldText and newText) taken from the file's own
 * `region` instead: a tolerant match must not rewrite the trailing spaces or quotes of lines the model did not change.
 * The region has oldText's line structure, since tolerant matching is line by line.
 */
function keepUnchangedLines(region: string, oldText: string, newText: string): string {
  const regionLines = region.split('\n');
  const oldLines = oldText.split('\n');
  if (regionLines.length !== oldLines.length || regionLines.length === 1) return newText;
  const out: string[] = [];
  let oldIndex = 0;
  for (const part of diffArrays(oldLines, newText.split('\n'))) {
    if (part.added) out.push(...part.value);
    else if (part.removed) oldIndex += part.value.length;
    else for (let k = 0; k < part.value.length; k++) out.push(regionLines[oldIndex++]);
  }
  return out.join('\n');
}

function overlapProblems(located: LocatedEdit[], lazy: LazyViews): string[] {
  const ordered = [...located].sort((a, b) => a.start - b.start);
  const problems: string[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const previous = ordered[i - 1];
    const current = ordered[i];
    if (current.start < previous.end) {
      const [first, second] = previous.index < current.index ? [previous, current] : [current, previous];
      problems.push(
        `edits[${second.index}] overlaps edits[${first.index}] (both touch line ${lazy.lineNumber(current.start)}). ` +
          'Each edit must change a separate region of the original file: merge them into one edit.',
      );
    }
  }
  return problems;
}

function ambiguous(label: string, lines: number[], found: number, total: number): string {
  const shown = lines.slice(0, MAX_LISTED_OCCURRENCES).join(', ');
  const count = found > MAX_LISTED_OCCURRENCES ? `${Math.max(total, found)}` : `${found}`;
  const more = found > MAX_LISTED_OCCURRENCES ? ', …' : '';
  return `${label}: found ${count} occurrences of oldText (lines ${shown}${more}); it must match exactly one place. ` +
    'Add surrounding lines to oldText to make it unique.';
}

function notFound(label: string, lines: string[], oldText: string): string {
  const region = closestRegion(lines, oldText);
  if (region === null) {
    return `${label}: oldText was not found in the file, and no similar region exists. ` +
      'Read the file to see its current content, then retry with text copied exactly from it.';
  }
  return `${label}: oldText was not found in the file. The closest region is lines ${region.start + 1}-${region.end + 1}:\n` +
    `${formatRegion(lines, region)}\n` +
    'Retry with oldText copied exactly from the current file (without the line-number prefixes).';
}

function occurrencesOf(haystack: string, needle: string, max: number): number[] {
  const found: number[] = [];
  let at = haystack.indexOf(needle);
  while (at !== -1 && found.length < max) {
    found.push(at);
    at = haystack.indexOf(needle, at + 1);
  }
  return found;
}

function countAll(haystack: string, needle: string): number {
  let count = 0;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    count++;
    at = haystack.indexOf(needle, at + 1);
  }
  return count;
}

function toLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

// The line index and the tolerant view cost a pass over the file each, so they are built only when needed.
class LazyViews {
  private starts: number[] | null = null;
  private view: TolerantText | null = null;

  constructor(private readonly content: string) {}

  tolerant(): TolerantText {
    this.view ??= new TolerantText(this.content);
    return this.view;
  }

  lineNumber(offset: number): number {
    this.starts ??= this.view?.lineStarts ?? offsetsOf(this.content.split('\n'));
    return lineAt(this.starts, offset) + 1;
  }
}
