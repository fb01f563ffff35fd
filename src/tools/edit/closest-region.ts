// Finds where in a file a not-found oldText most likely meant, so the edit error can show the model the real text.
// Linear in the file size: each line is scored once by the character trigrams it shares with the oldText (hashed
// into a bitmap, no per-line allocation), then a window as tall as the oldText slides over the scores.
import { normalizeLine } from './fuzzy-text';

const HASH_BITS = 20;
const HASH_MASK = (1 << HASH_BITS) - 1;

const MAX_CHARS_PER_LINE = 400;
const CONTEXT_LINES = 2;
const MAX_REGION_LINES = 40;
const MAX_SHOWN_LINE_CHARS = 300;

/** The 0-based line range [start, end] most similar to `oldText`, or null when nothing is similar. */
export function closestRegion(lines: string[], oldText: string): { start: number; end: number } | null {
  const oldLines = oldText.split('\n');
  const wanted = new Uint8Array(1 << HASH_BITS);
  let wantedCount = 0;
  for (const line of oldLines) {
    wantedCount += forEachTrigram(normalizeLine(line), (hash) => {
      wanted[hash] = 1;
    });
  }
  if (wantedCount === 0 || lines.length === 0) return null;

  const height = Math.min(oldLines.length, lines.length);
  const shared = new Float64Array(lines.length);
  const total = new Float64Array(lines.length);
  let hits = 0;
  const countHit = (hash: number) => {
    hits += wanted[hash];
  };
  for (let i = 0; i < lines.length; i++) {
    hits = 0;
    total[i] = forEachTrigram(lines[i], countHit);
    shared[i] = hits;
  }

  let best = -1;
  let bestScore = 0;
  let windowShared = 0;
  let windowTotal = 0;
  for (let i = 0; i < lines.length; i++) {
    windowShared += shared[i];
    windowTotal += total[i];
    if (i >= height) {
      windowShared -= shared[i - height];
      windowTotal -= total[i - height];
    }
    if (i < height - 1) continue;
    const score = (2 * windowShared) / (windowTotal + wantedCount);
    if (score > bestScore) {
      bestScore = score;
      best = i - height + 1;
    }
  }
  if (best < 0 || bestScore < 0.2) return null;
  return { start: best, end: best + height - 1 };
}

/** The region with a little context, each line prefixed by its 1-based number. */
export function formatRegion(lines: string[], region: { start: number; end: number }): string {
  const from = Math.max(0, region.start - CONTEXT_LINES);
  const to = Math.min(lines.length - 1, region.end + CONTEXT_LINES, from + MAX_REGION_LINES - 1);
  const width = String(to + 1).length;
  const shown: string[] = [];
  for (let i = from; i <= to; i++) {
    const line = lines[i].length > MAX_SHOWN_LINE_CHARS ? `${lines[i].slice(0, MAX_SHOWN_LINE_CHARS)}…` : lines[i];
    shown.push(`${String(i + 1).padStart(width)}| ${line}`);
  }
  return shown.join('\n');
}

// Calls `visit` with the hash of each character trigram of `line`, ASCII letters lowercased, leading blanks
// skipped and runs of blanks read as one space; returns how many trigrams there were.
function forEachTrigram(line: string, visit: (hash: number) => void): number {
  const end = Math.min(line.length, MAX_CHARS_PER_LINE);
  let a = -1;
  let b = -1;
  let count = 0;
  let previousBlank = true;
  for (let i = 0; i < end; i++) {
    let code = line.charCodeAt(i);
    const blank = code === 32 || code === 9 || code === 13;
    if (blank && previousBlank) continue;
    previousBlank = blank;
    if (blank) code = 32;
    else if (code >= 65 && code <= 90) code += 32;
    if (a >= 0) {
      visit((Math.imul(a, 961) + Math.imul(b, 31) + code) & HASH_MASK);
      count++;
    }
    a = b;
    b = code;
  }
  return count;
}
