// Byte-level helpers for text that goes back to the model: limits are in UTF-8 bytes, not UTF-16 units.

/** Number of bytes `text` takes in UTF-8 (lone surrogates count as the 3-byte replacement character). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes that ends on a character boundary. */
export function utf8Prefix(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const width = charWidth(text, i);
    if (bytes + width.bytes > maxBytes) break;
    bytes += width.bytes;
    i += width.units;
  }
  return text.slice(0, i);
}

/** The longest suffix of `text` within `maxBytes` UTF-8 bytes that starts on a character boundary. */
export function utf8Suffix(text: string, maxBytes: number): string {
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    const code = text.charCodeAt(i - 1);
    const pair = isLowSurrogate(code) && i >= 2 && isHighSurrogate(text.charCodeAt(i - 2));
    const width = pair ? 4 : code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
    if (bytes + width > maxBytes) break;
    bytes += width;
    i -= pair ? 2 : 1;
  }
  return text.slice(i);
}

/** Decodes UTF-8 strictly; null when the bytes are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Base64 of `bytes` without Node's Buffer (runs in workers and browsers too). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) {
    binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  }
  return btoa(binary);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function charWidth(text: string, i: number): { bytes: number; units: number } {
  const code = text.charCodeAt(i);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) return { bytes: 4, units: 2 };
  return { bytes: 3, units: 1 };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
