// Progress bars and spinners redraw their line: a carriage return, then the new state. A terminal shows only the last
// state; a model reading every frame pays for hundreds of them. This filter keeps the final state of each line: a
// lone CR means "replace the current line" (text after it replaces the line; a CR right before LF keeps it).

// A line that never ends (a minified file, a binary) is passed on in pieces of this size instead of held whole.
const MAX_HELD_LINE = 64 * 1024;

/** Collapses CR-redrawn lines of a stream (LF line ends, lone CRs kept) chunk by chunk. */
export class LineRedraw {
  private line = '';
  private replacing = false;

  /** The lines of `chunk` that are complete now, each in its final state; the unfinished line is held. */
  push(chunk: string): string {
    let out = '';
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const ch = chunk[i];
      if (ch !== '\n' && ch !== '\r') continue;
      this.add(chunk.slice(start, i));
      start = i + 1;
      if (ch === '\r') {
        this.replacing = true;
        continue;
      }
      out += `${this.line}\n`;
      this.line = '';
      this.replacing = false;
    }
    this.add(chunk.slice(start));
    if (this.line.length > MAX_HELD_LINE) {
      out += this.line;
      this.line = '';
    }
    return out;
  }

  /** The unfinished last line, in its final state. */
  flush(): string {
    const rest = this.line;
    this.line = '';
    this.replacing = false;
    return rest;
  }

  private add(text: string): void {
    if (text === '') return;
    if (this.replacing) {
      this.line = text;
      this.replacing = false;
    } else {
      this.line += text;
    }
  }
}
