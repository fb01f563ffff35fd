import { describe, expect, it } from 'vitest';
import { compilePattern } from './compiled-pattern';
import { Unsupported } from './unsupported';

const WORD = '[\\p{L}\\p{N}_]';

describe('compilePattern', () => {
  it('matches any of the sources', () => {
    const { matcher } = compilePattern(['fo+', 'ba(r)'], { line: false, ignoreCase: false });
    expect(['foo', 'bar', 'baz'].map((line) => matcher.test(line))).toEqual([true, true, false]);
  });

  it('holds the pattern to whole lines, whole words, or both', () => {
    const test = (shape: { line: boolean; wordClass?: string }, line: string) =>
      compilePattern(['foo|a'], { ...shape, ignoreCase: false }).matcher.test(line);
    expect([test({ line: true }, 'foo'), test({ line: true }, 'foo bar'), test({ line: true }, 'a')]).toEqual([true, false, true]);
    expect([test({ line: false, wordClass: WORD }, 'x foo.'), test({ line: false, wordClass: WORD }, 'foobar')]).toEqual([true, false]);
    expect([test({ line: true, wordClass: WORD }, 'foo'), test({ line: true, wordClass: WORD }, 'foo x')]).toEqual([true, false]);
  });

  it('ignores case when asked, and finds every match with the global expression', () => {
    const { matcher, everyMatch } = compilePattern(['foo'], { line: false, ignoreCase: true });
    expect(matcher.test('FOO')).toBe(true);
    expect('Foo foo FOO'.match(everyMatch)).toEqual(['Foo', 'foo', 'FOO']);
  });

  it('leaves what JavaScript does not compile to just-bash', () => {
    expect(() => compilePattern(['(?<x>a)', '(?<x>b)'], { line: false, ignoreCase: false })).toThrow(Unsupported);
  });
});
