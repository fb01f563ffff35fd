// What a shell search command prints. Text from files that are not UTF-8 carries surrogate escapes for its invalid
// bytes (search-input.ts); those are printed as the original bytes, as ripgrep prints them, which makes the whole
// output bytes rather than text.

import { ESCAPE_BASE, hasEscapes } from './search-input';

export class CommandOutput {
  private readonly chunks: string[] = [];
  private anyEscapes = false;

  write(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    if (!this.anyEscapes && hasEscapes(text)) this.anyEscapes = true;
  }

  /**
   * The stdout fields of a just-bash result: text, or bytes as a Latin-1 string (what just-bash's textOutput and
   * bytesOutput build; its browser bundle does not export them).
   */
  stdout(): { stdout: string; stdoutKind: 'text' } | { stdout: string; stdoutKind: 'bytes'; stdoutEncoding: 'binary' } {
    const text = this.chunks.join('');
    if (!this.anyEscapes) return { stdout: text, stdoutKind: 'text' };
    return { stdout: latin1Bytes(text), stdoutKind: 'bytes', stdoutEncoding: 'binary' };
  }
}

/** `text` as UTF-8 bytes in a Latin-1 string, its surrogate escapes as the bytes they stand for. */
function latin1Bytes(text: string): string {
  const encoder = new TextEncoder();
  let out = '';
  for (const part of text.split(/((?<![\uD800-\uDBFF])[\uDC80-\uDCFF])/)) {
    if (part.length === 1 && part.charCodeAt(0) >= 0xdc80 && part.charCodeAt(0) <= 0xdcff) {
      out += String.fromCharCode(part.charCodeAt(0) - ESCAPE_BASE);
    } else for (const byte of encoder.encode(part)) out += String.fromCharCode(byte);
  }
  return out;
}
