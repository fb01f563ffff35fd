// Which rows of a long list to render: rows have measured (or estimated) heights; only those within the viewport
// plus a margin are in the DOM, with spacers standing in for the rest.

export type WindowRange = { start: number; end: number; before: number; after: number; total: number };

/** Rows [start, end) to render for a scroll position, and the spacer heights before and after them. */
export function visibleRange(heights: readonly number[], scrollTop: number, viewport: number, overscan: number): WindowRange {
  const top = Math.max(0, scrollTop - overscan);
  const bottom = scrollTop + viewport + overscan;
  let offset = 0;
  let start = heights.length;
  let before = 0;
  for (let i = 0; i < heights.length; i++) {
    if (offset + heights[i] > top) {
      start = i;
      before = offset;
      break;
    }
    offset += heights[i];
  }
  if (start === heights.length) before = offset;
  let end = start;
  offset = before;
  while (end < heights.length && offset < bottom) offset += heights[end++];
  let total = offset;
  for (let i = end; i < heights.length; i++) total += heights[i];
  return { start, end, before, after: total - offset, total };
}
