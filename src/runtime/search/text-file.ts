// Which files a search reads as text, and how: the same rules as the tools' own reads (a NUL byte in the first 8 KB
// makes a file binary; text must be valid UTF-8; a byte-order mark is kept as a character).

export const BINARY_SCAN_BYTES = 8192;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or null for a binary file or one that is not valid UTF-8. */
export function searchableText(bytes: Uint8Array): string | null {
  // A large file is checked for NUL first, so a big binary is not decoded for nothing; a small one is decoded first,
  // which is cheaper than a separate pass over its bytes.
  if (bytes.length > 8 * BINARY_SCAN_BYTES && bytes.subarray(0, BINARY_SCAN_BYTES).indexOf(0) !== -1) return null;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return null;
  }
  // A character's index is never above its byte offset, so a NUL in the first 8 KB is among the first 8192 characters.
  const nul = text.indexOf('\0');
  if (nul !== -1 && nul < BINARY_SCAN_BYTES && new TextEncoder().encode(text.slice(0, nul)).length < BINARY_SCAN_BYTES) {
    return null;
  }
  return text;
}
