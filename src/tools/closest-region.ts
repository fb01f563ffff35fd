// Finds where in a file a not-found oldText most likely meant, so the edit error can show the model the real text.
// Linear in the file size: each line is scored once by the character trigrams it shares with the oldText, then a
// window as tall as the oldText slides over the scores.
import { normalizeLine } from './fuzzy-text';

const MAX_CHARS_PER_LINE = 400;
const CONTEXT_LINES = 2;
const MAX_REGION_LINES = 40;
const MAX_SHOWN_LINE_CHARS = 300;

/** The 0-based line range [start, end] most similar to `oldText`, or null when nothing is similar. */
export function closestRegion(lines: string[], oldText: string): { start: number; end: number } | null {
  const oldLines = oldText.split('\n');
  const wanted = new Set<string>();
  for (const line of oldLines) for (const gram of trigramsOf(line)) wanted.add(gram);
  if (wanted.size === 0 || lines.length === 0) return null;

  const height = Math.min(oldLines.length, lines.length);
  const shared = new Float64Array(lines.length);
  const total = new Float64Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const grams = trigramsOf(lines[i]);
    total[i] = grams.size;
    let hits = 0;
    for (const gram of grams) if (wanted.has(gram)) hits++;
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
    const score = (2 * windowShared) / (windowTotal + wanted.size);
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

function trigramsOf(line: string): Set<string> {
  const text = normalizeLine(line.slice(0, MAX_CHARS_PER_LINE)).trim().replace(/\s+/g, ' ').toLowerCase();
  const grams = new Set<string>();
  if (text.length === 0) return grams;
  if (text.length < 3) {
    grams.add(text);
    return grams;
  }
  for (let i = 0; i + 3 <= text.length; i++) grams.add(text.slice(i, i + 3));
  return grams;
}
