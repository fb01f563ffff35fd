// A shell that is spawned per command forgets `cd`. To carry the directory over, the command is followed by a line
// printing a unique marker and `$PWD`; this filter takes that line out of the output stream and keeps the path.

import { partialPrefixLength } from './partial-match';

/** Wraps commands and filters their output to learn the shell's final directory. */
export class CwdMarker {
  private readonly token: string;
  private held = '';
  private capturing = false;
  private captured = '';
  private found: string | undefined;

  constructor(nonce: string = Math.random().toString(36).slice(2, 10)) {
    this.token = `__CONCH_CWD_${nonce}=`;
  }

  /** The script to run: the command, then the marker line, keeping the command's exit status. */
  wrap(command: string): string {
    return `${command}\n__conch_status=$?\nprintf '%s%s\\n' '${this.token}' "$PWD"\nexit $__conch_status\n`;
  }

  /** The directory the marker reported, once seen (undefined when the command exited before printing it). */
  get cwd(): string | undefined {
    return this.found;
  }

  /** `chunk` without the marker line; a possible partial marker at the end is held for the next chunk. */
  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    let out = '';
    while (text !== '') {
      if (this.capturing) {
        const end = text.indexOf('\n');
        if (end === -1) {
          this.captured += text;
          return out;
        }
        this.captured += text.slice(0, end);
        this.found = this.captured.replace(/\r$/, '');
        this.capturing = false;
        text = text.slice(end + 1);
        continue;
      }
      const at = text.indexOf(this.token);
      if (at !== -1) {
        out += text.slice(0, at);
        this.capturing = true;
        this.captured = '';
        text = text.slice(at + this.token.length);
        continue;
      }
      const keep = partialPrefixLength(text, this.token);
      out += text.slice(0, text.length - keep);
      this.held = text.slice(text.length - keep);
      return out;
    }
    return out;
  }

  /** Text still held at the end of the stream (it was not a marker after all). */
  flush(): string {
    const rest = this.held;
    this.held = '';
    if (this.capturing) {
      this.found = this.captured.replace(/\r$/, '');
      this.capturing = false;
    }
    return rest;
  }
}
