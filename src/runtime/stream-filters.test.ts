import { describe, expect, it } from 'vitest';
import { AnsiStripper, stripAnsi } from './ansi';
import { CwdMarker } from './cwd-marker';
import { OutputTail } from './output-tail';

/** Feeds `text` one character at a time: the worst chunking a stream can produce. */
function charByChar(push: (chunk: string) => string, flush: () => string, text: string): string {
  let out = '';
  for (const ch of text) out += push(ch);
  return out + flush();
}

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

describe('CwdMarker', () => {
  it('takes the marker line out of the output even when split across chunks', () => {
    const marker = new CwdMarker('n0nce');
    const stream = 'hello\r\nwor__CONCH_CWD_ld\r\n__CONCH_CWD_n0nce=/home/project/sub\r\n';
    expect(charByChar((c) => marker.push(c), () => marker.flush(), stream)).toBe('hello\r\nwor__CONCH_CWD_ld\r\n');
    expect(marker.cwd).toBe('/home/project/sub');
  });

  it('wraps a command so its exit status survives the marker line', () => {
    const script = new CwdMarker('x').wrap('exit 3');
    expect(script.startsWith('exit 3\n')).toBe(true);
    expect(script).toContain('exit $__conch_status');
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
