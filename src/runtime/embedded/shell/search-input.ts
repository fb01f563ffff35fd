// How rg and grep read what they search: UTF-8 text, where each byte that is not part of valid UTF-8 stands as one
// unpaired surrogate (U+DC80 to U+DCFF, "surrogate escapes"). Patterns never match those (the translated `.` and
// negated classes leave them out, as ripgrep and grep never match an invalid byte), and output turns them back into
// the original bytes (command-output.ts).

import type { ByteString } from 'just-bash';

/** The first of the code units standing for invalid bytes 0x80..0xFF. */
export const ESCAPE_BASE = 0xdc00;
/** A regular-expression class range (unicode mode) of the escapes, to leave out of `.` and negated classes. */
export const ESCAPES_CLASS = '\\uDC80-\\uDCFF';

const strict = new TextDecoder('utf-8', { fatal: true });
const strictKeepingBom = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes`, and whether any byte was not valid UTF-8. A leading byte-order mark is dropped if `stripBom`. */
export function decodeForSearch(bytes: Uint8Array, stripBom: boolean): { text: string; invalid: boolean } {
  try {
    return { text: (stripBom ? strict : strictKeepingBom).decode(bytes), invalid: false };
  } catch {
    const start = stripBom && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return { text: decodeWithEscapes(bytes, start), invalid: true };
  }
}

/** UTF-8 decoding that keeps each invalid byte as its surrogate escape. */
function decodeWithEscapes(bytes: Uint8Array, start: number): string {
  const units: number[] = [];
  let i = start;
  while (i < bytes.length) {
    const b = bytes[i];
    const width = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const code = width === 0 ? -1 : sequence(bytes, i, width);
    if (code < 0) {
      units.push(ESCAPE_BASE + b);
      i++;
      continue;
    }
    if (code > 0xffff) units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
    else units.push(code);
    i += width;
  }
  let text = '';
  for (let at = 0; at < units.length; at += 0x8000) text += String.fromCharCode(...units.slice(at, at + 0x8000));
  return text;
}

/** The code point of the `width`-byte sequence at `i`, or -1 when it is not valid UTF-8 (overlong, surrogate, …). */
function sequence(bytes: Uint8Array, i: number, width: number): number {
  if (width === 1) return bytes[i];
  if (i + width > bytes.length) return -1;
  let code = bytes[i] & (0xff >> (width + 1));
  for (let k = 1; k < width; k++) {
    const next = bytes[i + k];
    if ((next & 0xc0) !== 0x80) return -1;
    code = (code << 6) | (next & 0x3f);
  }
  const minimum = width === 2 ? 0x80 : width === 3 ? 0x800 : 0x10000;
  if (code < minimum || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return -1;
  return code;
}

/** The byte offset in the original bytes of `text`'s character at `index` (escapes count one byte each). */
export function byteOffset(text: string, index: number): number {
  let bytes = 0;
  for (let i = 0; i < index; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80 || (code >= 0xdc80 && code <= 0xdcff && !(i > 0 && isHigh(text.charCodeAt(i - 1))))) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHigh(code) && i + 1 < index) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** True when `text` holds a surrogate escape (a byte that was not valid UTF-8). */
export function hasEscapes(text: string): boolean {
  return /[\uDC80-\uDCFF]/.test(text) && /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/.test(text);
}

/** A command's stdin as bytes (a ByteString is a Latin-1 string underneath; the browser bundle has no accessor). */
export function stdinBytes(stdin: ByteString): Uint8Array {
  const latin1 = stdin as unknown as string;
  const bytes = new Uint8Array(latin1.length);
  for (let i = 0; i < latin1.length; i++) bytes[i] = latin1.charCodeAt(i);
  return bytes;
}
