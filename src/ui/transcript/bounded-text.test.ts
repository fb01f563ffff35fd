import { describe, expect, it } from 'vitest';
import { CHUNK_CHARS, chunkRanges, PREVIEW_CHARS, PREVIEW_LINES, previewEnd, sizeLabel } from './bounded-text';

describe('bounded text', () => {
  it('previews at most PREVIEW_CHARS characters or PREVIEW_LINES lines, whatever the shape', () => {
    expect(previewEnd('short')).toBe(5);
    expect(previewEnd('A'.repeat(1_000_000))).toBe(PREVIEW_CHARS);
    const lines = 'ab\n'.repeat(100_000);
    expect(previewEnd(lines)).toBe(PREVIEW_LINES * 3);
    expect(lines.slice(0, previewEnd(lines)).split('\n')).toHaveLength(PREVIEW_LINES + 1);
  });

  it('cuts the rest into chunks that cover it exactly, never inside a surrogate pair', () => {
    const text = `${'x'.repeat(PREVIEW_CHARS - 1)}😀${'y'.repeat(CHUNK_CHARS * 2)}`;
    const from = previewEnd(text);
    expect(from).toBe(PREVIEW_CHARS + 1);
    const ranges = chunkRanges(text, from);
    expect(ranges.map(([a, b]) => text.slice(a, b)).join('')).toBe(text.slice(from));
    expect(ranges).toHaveLength(2);
    expect(sizeLabel(50 * 1024 * 1024)).toBe('52.4 MB');
  });
});
