import { describe, expect, it } from 'vitest';
import { CwdMarker } from './cwd-marker';
import { JshOscParser, jshOscSequence, type JshStreamPart } from './osc';
import { charByChar } from '../../testing/char-by-char';

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

describe('JshOscParser', () => {
  const events = (parts: JshStreamPart[]) => parts.filter((p) => p.kind === 'event').map((p) => (p.kind === 'event' ? p.event : null));
  const texts = (parts: JshStreamPart[]) => parts.map((p) => (p.kind === 'text' ? p.text : '')).join('');

  it("reads jsh's interactive, prompt and exit sequences and leaves other text and escapes alone", () => {
    const parser = new JshOscParser();
    const raw = `\x1b]0;jsh\x07${jshOscSequence({ type: 'interactive' })}~/project\r\n${jshOscSequence({ type: 'prompt' })}\x1b[35m❯\x1b[0m ` +
      `ls\r\na.txt\r\n${jshOscSequence({ type: 'exit', code: 3 }, 7)}\x1b]654;exit=-1:0\x1b\\\x1b]654;custom=x\x07`;
    const parts = parser.push(raw);
    expect(events(parts)).toEqual([
      { type: 'interactive' },
      { type: 'prompt' },
      { type: 'exit', code: 3 },
      { type: 'exit', code: -1 },
      { type: 'other', name: 'custom', value: 'x' },
    ]);
    expect(texts(parts)).toBe('\x1b]0;jsh\x07~/project\r\n\x1b[35m❯\x1b[0m ls\r\na.txt\r\n');
  });

  it('finds a sequence cut anywhere by the chunking, and lets a lookalike through as text', () => {
    const raw = `out\x1b]65${'4'};exit=0:1\x07\x1b]6543;x\x07tail`;
    const parser = new JshOscParser();
    const parts: JshStreamPart[] = [];
    for (const ch of raw) parts.push(...parser.push(ch));
    expect(parser.flush()).toBe('');
    expect(events(parts)).toEqual([{ type: 'exit', code: 0 }]);
    expect(texts(parts)).toBe('out\x1b]6543;x\x07tail');
  });

  it('gives up on an unterminated sequence after a few hundred characters', () => {
    const parser = new JshOscParser();
    const text = texts(parser.push(`\x1b]654;${'y'.repeat(400)}`)) + parser.flush();
    expect(text).toBe(`\x1b]654;${'y'.repeat(400)}`);
  });
});
