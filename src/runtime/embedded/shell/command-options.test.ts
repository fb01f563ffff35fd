import { describe, expect, it } from 'vitest';
import { patternsAndPaths } from './command-options';
import { Unsupported } from './unsupported';

describe('patternsAndPaths', () => {
  it('takes the first operand for the pattern unless -e gave patterns', () => {
    expect(patternsAndPaths('rg', [], ['foo', 'src', 'a.txt'])).toEqual({ patterns: ['foo'], paths: ['src', 'a.txt'] });
    expect(patternsAndPaths('rg', ['foo', 'bar'], ['src'])).toEqual({ patterns: ['foo', 'bar'], paths: ['src'] });
  });

  it('takes no pattern when none is wanted (rg --files)', () => {
    expect(patternsAndPaths('rg', [], ['src'], false)).toEqual({ patterns: [], paths: ['src'] });
  });

  it('leaves a missing pattern and "-" for stdin to just-bash', () => {
    expect(() => patternsAndPaths('grep', [], [])).toThrow(Unsupported);
    expect(() => patternsAndPaths('grep', [], ['foo', '-'])).toThrow(Unsupported);
    expect(() => patternsAndPaths('rg', [], ['-'], false)).toThrow(Unsupported);
  });
});
