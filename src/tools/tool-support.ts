// Small pieces every tool shares: result construction, file-kind sniffing, abort checks and shell quoting.
import type { AgentToolResult } from '../agent/types';

/** A result holding one text block. */
export function textResult(text: string, details?: unknown): AgentToolResult {
  return details === undefined ? { content: [{ type: 'text', text }] } : { content: [{ type: 'text', text }], details };
}

/** The image MIME type of `bytes` judged by magic bytes (PNG, JPEG, GIF, WebP), or null. */
export function imageMimeType(bytes: Uint8Array): string | null {
  const startsWith = (signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return 'image/gif';
  }
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  return null;
}

/** True when the first bytes hold a NUL, the usual sign of a binary file. */
export function hasNulByte(bytes: Uint8Array, scanLength = 8192): boolean {
  const end = Math.min(bytes.length, scanLength);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Throws the standard abort error when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new Error(`${what} was aborted before it finished.`);
}

/** Single-quotes `text` for a POSIX shell command the model may copy. */
export function shellQuote(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
