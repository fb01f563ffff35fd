import { describe, expect, it } from 'vitest';
import { AnsiStripper, stripAnsi } from './ansi';
import { LineRedraw } from './line-redraw';
import { ModelTextFilter, toModelText } from './model-text';
import { OutputTail } from './output-tail';
import { charByChar } from '../testing/char-by-char';

describe('stripAnsi', () => {
  it('removes colours, cursor moves, OSC titles and links, and normalises line ends', () => {
    const raw = '\x1b]0;title\x07\x1b[?2004l\x1b[1;31mred\x1b[0m\r\n\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\\rnext\x1b(B\x07\n';
    expect(stripAnsi(raw)).toBe('red\nlink\nnext\n');
  });

  it('gives the same text however the stream is chunked', () => {
    const raw = 'a\x1b[32mb\x1b]0;t\x1b\\c\r\nd\x1b[0m\r';
    const stripper = new AnsiStripper();
    expect(charByChar((c) => stripper.push(c), () => stripper.flush(), raw)).toBe(stripAnsi(raw));
    expect(stripAnsi(raw)).toBe('abc\nd\n');
  });
});

describe('OutputTail', () => {
  it('keeps everything under the cap', () => {
    const tail = new OutputTail(10);
    tail.push('abc');
    tail.push('def');
    expect(tail.text()).toBe('abcdef');
  });

  it('keeps only the end and says how much was cut', () => {
    const tail = new OutputTail(5);
    for (let i = 0; i < 100; i++) tail.push('0123456789');
    expect(tail.text()).toBe('[output cut: the first 995 characters are not kept here; the last 5 follow]\n56789');
  });

  it('never splits an emoji at the cut', () => {
    const tail = new OutputTail(3);
    tail.push('a🎉bc'); // 🎉 is two UTF-16 units; a cut between them would leave a lone surrogate
    expect(tail.text().endsWith('bc')).toBe(true);
    expect(tail.text()).not.toMatch(/[\ud800-\udfff]/);
  });
});

describe('ModelTextFilter (what the model reads)', () => {
  it('keeps only the final state of a line redrawn with CR, as a terminal shows it', () => {
    expect(toModelText('fetch 10%\rfetch 50%\rfetch 100%\r\nadded 3 packages\r\n')).toBe('fetch 100%\nadded 3 packages\n');
    expect(toModelText('a\rb\nkept\r\n\rlast')).toBe('b\nkept\nlast');
  });

  it("collapses npm's spinner, which moves to column 1 instead of sending CR", () => {
    const npm = '\u2819\x1b[1G\x1b[0K\u2839\x1b[1G\x1b[0K\x1b[1mnpm\x1b[22m done\r\n';
    expect(toModelText(npm)).toBe('npm done\n');
  });

  it('gives the same text however the stream is chunked, holding only the unfinished line', () => {
    const raw = 'one\r\ntwo 1/3\rtwo 2/3\r\x1b[32mtwo 3/3\x1b[0m\r\nthree\rTHREE';
    const filter = new ModelTextFilter();
    expect(charByChar((c) => filter.push(c), () => filter.flush(), raw)).toBe('one\ntwo 3/3\nTHREE');
    const streamed = new ModelTextFilter();
    expect(streamed.push('partial line')).toBe('');
    expect(streamed.push(' ends\r\nnext')).toBe('partial line ends\n');
    expect(streamed.flush()).toBe('next');
  });

  it('passes a line that never ends on in pieces instead of holding it whole', () => {
    const redraw = new LineRedraw();
    const out = redraw.push('x'.repeat(100_000));
    expect(out.length).toBe(100_000);
    expect(redraw.flush()).toBe('');
  });
});
