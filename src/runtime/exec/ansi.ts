// Terminal control sequences are noise to a model (and cost tokens): colours, cursor moves, window titles, shell
// integration marks. These functions remove them; the raw stream still goes to the person's terminal.

const ESC = '\x1b';
// OSC payloads are short (titles, marks, links); past this an unterminated one is treated as text, not held forever.
const MAX_PENDING = 4096;
// Everything that is not plain text: C0 controls except LF and TAB, DEL, and the 8-bit CSI.
const SPECIAL = /[\x00-\x08\x0b-\x1f\x7f\x9b]/g;

/** `text` without ANSI/OSC escape sequences, with CRLF and lone CR turned into LF and other control bytes removed. */
export function stripAnsi(text: string): string {
  const stripper = new AnsiStripper();
  return stripper.push(text) + stripper.flush();
}

export type AnsiStripperOptions = {
  /**
   * 'newline' (default): a lone CR becomes LF. 'keep': a lone CR stays (and a cursor move to column 1, which
   * progress bars use instead, becomes one), for a LineRedraw filter to collapse redrawn lines.
   */
  carriageReturn?: 'newline' | 'keep';
};

/** Strips a stream chunk by chunk; a sequence split across chunks is held until it completes. */
export class AnsiStripper {
  private pending = '';
  private readonly keepCarriageReturn: boolean;

  constructor(options: AnsiStripperOptions = {}) {
    this.keepCarriageReturn = options.carriageReturn === 'keep';
  }

  /** The printable text of `chunk` (plus anything held from the previous chunk that is now complete). */
  push(chunk: string): string {
    const text = this.pending + chunk;
    this.pending = '';
    let out = '';
    let i = 0;
    while (i < text.length) {
      // Copy the run of plain text up to the next control character in one slice (floods are megabytes).
      SPECIAL.lastIndex = i;
      const found = SPECIAL.exec(text);
      const next = found ? found.index : text.length;
      if (next > i) out += text.slice(i, next);
      if (next === text.length) break;
      i = next;
      const ch = text[i];
      if (ch === ESC || ch === '\x9b') {
        const end = sequenceEnd(text, i);
        if (end === undefined) {
          if (text.length - i <= MAX_PENDING) {
            this.pending = text.slice(i);
            return out;
          }
          i += 1; // an absurdly long unterminated sequence: drop the ESC and keep the rest as text
          continue;
        }
        if (this.keepCarriageReturn && isColumnOneMove(text.slice(i, end))) out += '\r';
        i = end;
        continue;
      }
      if (ch === '\r') {
        if (i + 1 === text.length) {
          this.pending = '\r'; // may be the first half of CRLF
          return out;
        }
        const crlf = text[i + 1] === '\n';
        out += crlf || !this.keepCarriageReturn ? '\n' : '\r';
        i += crlf ? 2 : 1;
        continue;
      }
      i += 1; // BEL, backspace and other control bytes
    }
    return out;
  }

  /** Whatever is still held at the end of the stream. */
  flush(): string {
    const rest = this.pending;
    this.pending = '';
    if (rest === '\r') return this.keepCarriageReturn ? '\r' : '\n';
    return ''; // an unfinished escape sequence at the very end is dropped
  }
}

/** CSI G (cursor to column n) with n at most 1: what npm's spinner sends instead of CR. */
function isColumnOneMove(sequence: string): boolean {
  return /^(?:\x1b\[|\x9b)[01]?G$/.test(sequence);
}

/** Index just past the escape sequence starting at `start`, or undefined when it is not complete yet. */
function sequenceEnd(text: string, start: number): number | undefined {
  if (text[start] === '\x9b') return csiEnd(text, start + 1);
  const kind = text[start + 1];
  if (kind === undefined) return undefined;
  if (kind === '[') return csiEnd(text, start + 2);
  if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') return stringEnd(text, start + 2);
  if (kind >= ' ' && kind <= '/') {
    // ESC, intermediates, then a final byte (e.g. ESC ( B, charset selection)
    let i = start + 1;
    while (i < text.length && text[i] >= ' ' && text[i] <= '/') i++;
    return i < text.length ? i + 1 : undefined;
  }
  return start + 2; // two-character sequences: ESC 7, ESC =, ESC M ...
}

function csiEnd(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) return i + 1;
    if (code < 0x20 || code > 0x3f) {
      if (code >= 0x20 && code <= 0x2f) continue; // intermediate bytes
      return i; // malformed: end the sequence here and keep the byte as text
    }
  }
  return undefined;
}

/** OSC/DCS/APC/PM/SOS strings end with BEL or ESC \ (string terminator). */
function stringEnd(text: string, from: number): number | undefined {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\x07') return i + 1;
    if (text[i] === ESC) {
      if (i + 1 === text.length) return undefined;
      if (text[i + 1] === '\\') return i + 2;
    }
  }
  return undefined;
}
