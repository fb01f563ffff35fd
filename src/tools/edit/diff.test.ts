import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './diff';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('gives hunk line numbers of the whole file for a change deep inside it', () => {
    const before = numbered(1000);
    const after = before.replace('line 500\n', 'line five hundred\n');
    const { diff, firstChangedLine } = unifiedDiff('f.txt', before, after);
    expect(firstChangedLine).toBe(500);
    expect(diff).toContain('@@ -497,7 +497,7 @@');
    expect(diff).toContain('-line 500\n+line five hundred\n');
    expect(diff).toContain(' line 497\n');
    expect(diff).toContain(' line 503\n');
    expect(diff).not.toContain('line 496\n');
  });

  it('handles changes at the start and the end without a final newline', () => {
    const { diff, firstChangedLine } = unifiedDiff('f.txt', 'a\nb\nc', 'A\nb\nC');
    expect(firstChangedLine).toBe(1);
    expect(diff).toContain('@@ -1,3 +1,3 @@');
    expect(diff).toContain('\\ No newline at end of file');
  });

  it('counts inserted lines', () => {
    const before = numbered(20);
    const after = before.replace('line 10\n', 'line 10\nnew a\nnew b\n');
    const { diff, firstChangedLine } = unifiedDiff('f.txt', before, after);
    expect(firstChangedLine).toBe(11);
    expect(diff).toContain('@@ -8,6 +8,8 @@');
  });

  it('is empty when nothing changed', () => {
    expect(unifiedDiff('f', 'x', 'x')).toEqual({ diff: '', firstChangedLine: null });
  });
});
