import { describe, expect, it } from 'vitest';
import { visibleRange } from './window';

describe('visibleRange', () => {
  const heights = Array.from({ length: 2000 }, () => 100);

  it('renders only the rows near the viewport of a 2,000-row list, with spacers for the rest', () => {
    const r = visibleRange(heights, 100_000, 800, 400);
    expect(r.start).toBe(996);
    expect(r.end).toBe(1012);
    expect(r.before).toBe(99_600);
    expect(r.before + (r.end - r.start) * 100 + r.after).toBe(200_000);
  });

  it('starts at the top and ends at the bottom', () => {
    expect(visibleRange(heights, 0, 800, 400)).toMatchObject({ start: 0, end: 12, before: 0 });
    const last = visibleRange(heights, 199_200, 800, 400);
    expect(last.end).toBe(2000);
    expect(last.after).toBe(0);
  });

  it('handles an empty list and uneven heights', () => {
    expect(visibleRange([], 0, 800, 400)).toEqual({ start: 0, end: 0, before: 0, after: 0, total: 0 });
    const r = visibleRange([10, 1000, 10, 10], 500, 100, 0);
    expect(r).toMatchObject({ start: 1, end: 2, before: 10, after: 20 });
  });
});
