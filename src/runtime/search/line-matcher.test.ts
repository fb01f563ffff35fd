import { describe, expect, it } from 'vitest';
import { lineConfinedSource } from './line-confined';
import { LineMatcher } from './line-matcher';

// Patterns that stress what a whole-text scan could get wrong: anchors, classes that hold \n, lookarounds that could
// see the neighbouring line, escapes written every way JavaScript allows, and legacy (non-unicode) syntax.
const PATTERNS: [string, string][] = [
  ['foo', ''], ['^foo', ''], ['foo$', ''], ['^$', ''], ['^', ''], ['$', 'u'], ['^\\s*$', 'u'], ['x*', ''],
  ['a[^z]*b', ''], ['a[^z]*b', 'iu'], ['a\\s+b', ''], ['a\\W+b', 'u'], ['a\\D+b', ''], ['a[\\s\\S]*b', ''],
  ['a[\\x00-\\x7f]*b', ''], ['a[\\0-z]+b', 'u'], ['a\\nb', ''], ['a\\n?b', ''], ['a\\x0a?b', ''], ['a\\u000A?b', ''],
  ['a\\u{a}?b', 'u'], ['a\\cJ?b', ''], ['a[\\n]?b', ''], ['a[^\\n]*b', ''], ['a.*b', ''], ['a.*b$', 'u'],
  ['(?<!a)b', ''], ['(?<![^a])b', ''], ['(?<=^)b', ''], ['b(?!.*a)', ''], ['b(?![\\s\\S]*a)', ''], ['b(?=\\s*$)', ''],
  ['\\bfoo\\b', ''], ['\\Bfoo', 'i'], ['(a)\\1', ''], ['(?<n>b)\\k<n>', 'u'], ['\\p{L}+\\P{L}+b', 'u'],
  ['a[\\p{White_Space}]b', 'u'], ['a\\r$', ''], ['a\\r?$', ''], ['[\\r\\n]', ''], ['\\u2028', ''], ['a{2,}', ''],
  ['a{', ''], ['a]', ''], ['\\12', ''], ['\\012', ''], ['(a)|\\2', ''], ['[-\\n]', ''], ['[a-]', ''], ['[\\w-\\n]', ''],
  ['\\q', ''], ['\\c1', ''], ['ſ', 'iu'], ['K', 'iu'], ['\u{1F600}.', 'u'], ['[\u{1F600}-\u{1F64F}]', 'u'],
];

const ALPHABET = ['a', 'b', 'z', 'foo', ' ', '\t', '\n', '\n', '\r', '\r\n', '\u2028', 'A', '_', 'ſ', 'K', '\u{1F600}'];

function randomTexts(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff);
  const texts: string[] = ['', '\n', 'a\n', '\nb', 'ab', 'a\r\nb\r\n'];
  for (let n = 0; n < count; n++) {
    let text = '';
    const length = next() % 14;
    for (let i = 0; i < length; i++) text += ALPHABET[next() % ALPHABET.length];
    texts.push(text);
  }
  return texts;
}

describe('LineMatcher.anyLine', () => {
  const texts = randomTexts(600);
  for (const [source, flags] of PATTERNS) {
    it(`agrees with a line-by-line test for /${source}/${flags}`, () => {
      const matcher = new LineMatcher(source, flags);
      const exact = new RegExp(source, flags);
      for (const text of texts) {
        const expected = text.split('\n').some((line) => exact.test(line));
        expect(matcher.anyLine(text), JSON.stringify(text)).toBe(expected);
      }
    });
  }
});

describe('lineConfinedSource', () => {
  it('keeps a newline out of every class and escape, and anchors ^ and $ to lines', () => {
    const confined = (source: string) => new RegExp(lineConfinedSource(source, true) ?? 'unchanged', 'gu');
    expect('a\nb'.match(confined('a[^z]b'))).toBeNull();
    expect('a\nb'.match(confined('a\\s+b'))).toBeNull();
    expect('x\nfoo\ny'.match(confined('^foo$'))).toEqual(['foo']);
  });

  it('leaves legacy octal escapes to the line-by-line test', () => {
    expect(lineConfinedSource('a\\012b', false)).toBeNull();
    expect(lineConfinedSource('(a)\\1', false)).toBe('(a)\\1');
  });
});

describe('LineMatcher.matchingLines', () => {
  it('finds the first matching lines, or with invert the others', () => {
    const matcher = new LineMatcher('o', '');
    const lines = ['one', 'two', 'three', 'four'];
    expect(matcher.matchingLines(lines, 10)).toEqual([0, 1, 3]);
    expect(matcher.matchingLines(lines, 2)).toEqual([0, 1]);
    expect(matcher.matchingLines(lines, 10, true)).toEqual([2]);
  });
});
