// UTF-8 for the guest's Buffer through the engine's native TextEncoder/TextDecoder. The `buffer` package encodes and
// decodes UTF-8 in JavaScript, one code point at a time into plain arrays: fine under V8, seconds for a few megabytes
// under QuickJS's interpreter. Only the UTF-8 paths are replaced; every other encoding stays the package's.

import { host, toArrayBuffer } from './host';

type BufferClass = typeof import('buffer').Buffer;

const UTF8 = new Set([undefined, 'utf8', 'utf-8', 'UTF8', 'UTF-8']);

/** Replaces Buffer.from(string), Buffer.byteLength(string) and buf.toString() for UTF-8 with native conversions. */
export function useNativeUtf8(Buffer: BufferClass): void {
  const from = Buffer.from;
  const byteLength = Buffer.byteLength;
  const toString = Buffer.prototype.toString;
  const encode = (text: string) => new Uint8Array(host.encodeUtf8(text));

  Buffer.from = function (value: unknown, encodingOrOffset?: unknown, length?: unknown) {
    if (typeof value === 'string' && UTF8.has(encodingOrOffset as string | undefined)) {
      const bytes = encode(value);
      return (from as (...args: unknown[]) => unknown).call(Buffer, bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    return (from as (...args: unknown[]) => unknown).call(Buffer, value, encodingOrOffset, length);
  } as BufferClass['from'];

  Buffer.byteLength = function (value: unknown, encoding?: unknown) {
    if (typeof value === 'string' && UTF8.has(encoding as string | undefined)) return host.encodeUtf8(value).byteLength;
    return (byteLength as (...args: unknown[]) => number).call(Buffer, value, encoding);
  } as BufferClass['byteLength'];

  Buffer.prototype.toString = function (this: Uint8Array, encoding?: unknown, start?: unknown, end?: unknown) {
    if (UTF8.has(encoding as string | undefined)) {
      const from = start === undefined ? 0 : Math.max(0, Number(start) | 0);
      const to = end === undefined ? this.length : Math.min(this.length, Number(end) | 0);
      return to <= from ? '' : host.decodeUtf8(toArrayBuffer(this.subarray(from, to)));
    }
    return (toString as (...args: unknown[]) => string).call(this, encoding, start, end);
  } as BufferClass['prototype']['toString'];
}
