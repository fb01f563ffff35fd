import { describe, expect, it } from 'vitest';
import { countLines, truncateHead, truncateTail } from './truncate';
import { utf8Length } from './utf8';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('countLines', () => {
  it('treats a final newline as the end of the last line', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('a\n\n')).toBe(2);
  });
});

describe('truncateHead', () => {
  it('returns short text untouched', () => {
    const result = truncateHead('one\ntwo\n');
    expect(result).toMatchObject({ content: 'one\ntwo\n', truncated: false, truncatedBy: null, totalLines: 2 });
  });

  it('keeps the first 2000 lines of a longer text', () => {
    const result = truncateHead(numbered(2500));
    expect(result.truncated).toBe(true);
    expect(result.truncatedBy).toBe('lines');
    expect(result.outputLines).toBe(2000);
    expect(result.totalLines).toBe(2500);
    expect(result.content.split('\n').at(-1)).toBe('line 2000');
  });

  it('stops at the byte limit on a whole line', () => {
    const line = 'x'.repeat(999);
    const result = truncateHead(Array(100).fill(line).join('\n'), { maxBytes: 10_000 });
    expect(result.truncatedBy).toBe('bytes');
    expect(result.outputLines).toBe(10);
    expect(result.outputBytes).toBe(10 * 999 + 9);
    expect(result.content.split('\n').every((l) => l === line)).toBe(true);
  });

  it('counts UTF-8 bytes, not UTF-16 units', () => {
    const line = 'é'.repeat(10); // 20 bytes
    const result = truncateHead(`${line}\n${line}\n${line}`, { maxBytes: 45 });
    expect(result.outputLines).toBe(2);
    expect(result.outputBytes).toBe(41);
  });

  it('flags a first line that alone exceeds the byte limit', () => {
    const result = truncateHead(`${'y'.repeat(100)}\nshort`, { maxBytes: 50 });
    expect(result).toMatchObject({ content: '', firstLineExceedsLimit: true, outputLines: 0, truncatedBy: 'bytes' });
  });
});

describe('truncateTail', () => {
  it('keeps the last 2000 lines', () => {
    const result = truncateTail(`${numbered(4000)}\n`);
    expect(result.truncatedBy).toBe('lines');
    expect(result.outputLines).toBe(2000);
    expect(result.totalLines).toBe(4000);
    expect(result.content.split('\n')[0]).toBe('line 2001');
    expect(result.content.split('\n').at(-1)).toBe('line 4000');
  });

  it('keeps whole lines under the byte limit', () => {
    const result = truncateTail(numbered(1000), { maxBytes: 100 });
    expect(result.truncatedBy).toBe('bytes');
    expect(result.outputBytes).toBeLessThanOrEqual(100);
    expect(result.content.split('\n').at(-1)).toBe('line 1000');
    expect(result.content.startsWith('line ')).toBe(true);
  });

  it('keeps the end of a single line over the limit without splitting a character', () => {
    // Each "€" is 3 bytes; a limit of 10 falls inside the fourth character from the end.
    const result = truncateTail('€'.repeat(20), { maxBytes: 10 });
    expect(result.lastLinePartial).toBe(true);
    expect(result.content).toBe('€€€');
    expect(result.outputBytes).toBe(9);
  });

  it('never splits a surrogate pair at the cut', () => {
    const result = truncateTail(`a${'😀'.repeat(10)}`, { maxBytes: 15 });
    expect(result.content).toBe('😀😀😀');
    expect(result.content).not.toContain('\ufffd');
    expect(utf8Length(result.content)).toBe(12);
  });
});
