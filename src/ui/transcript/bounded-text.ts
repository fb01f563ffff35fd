// How much of a long text the transcript lays out at once. Laying out text costs the browser time that grows with
// the text, and far faster than linearly for a long run of one character where the font's kerning and ligatures
// make every possible break reshape the run (10,000 × "A" took 1.5 s in a sans-serif with kerning, 4 ms without).
// So a long message shows a preview, and "Show all" puts the rest in a scrolling block of fixed width, in chunks
// the browser lays out only when they scroll into view.

/** Characters shown before "Show all"; texts up to this size render whole. */
export const PREVIEW_CHARS = 10_000;
/** Lines shown before "Show all". */
export const PREVIEW_LINES = 200;
/** Characters per chunk of the rest (laid out on its own, in about 50 ms at most). */
export const CHUNK_CHARS = 64 * 1024;

/** Where the preview of `text` ends: after PREVIEW_CHARS characters or PREVIEW_LINES lines; text.length if it fits. */
export function previewEnd(text: string): number {
  let end = Math.min(text.length, PREVIEW_CHARS);
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < end; at = text.indexOf('\n', at + 1)) {
    if (++lines === PREVIEW_LINES) {
      end = at + 1;
      break;
    }
  }
  return keepPairs(text, end);
}

/** The rest of `text` after `from`, as [start, end) ranges of at most CHUNK_CHARS, never splitting a surrogate pair. */
export function chunkRanges(text: string, from: number): [number, number][] {
  const ranges: [number, number][] = [];
  for (let start = from; start < text.length; ) {
    const end = keepPairs(text, Math.min(text.length, start + CHUNK_CHARS));
    ranges.push([start, end]);
    start = end;
  }
  return ranges;
}

/** "1.2 MB", "34 KB", "512 characters" for the size of what is hidden. */
export function sizeLabel(chars: number): string {
  if (chars >= 1_000_000) return `${(chars / 1_000_000).toFixed(1)} MB`;
  if (chars >= 1000) return `${Math.round(chars / 1000)} KB`;
  return `${chars} characters`;
}

/** Moves a cut that would fall between the two halves of a surrogate pair one place on. */
function keepPairs(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const before = text.charCodeAt(at - 1);
  return before >= 0xd800 && before <= 0xdbff ? at + 1 : at;
}
