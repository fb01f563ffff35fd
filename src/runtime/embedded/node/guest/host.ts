// The engine's functions, as the guest sees them (installed as `globalThis.__conchHost` before the guest runs).

import type { EngineHost } from './host-api';

export const host = (globalThis as unknown as { __conchHost: EngineHost }).__conchHost;

/** Bytes as the engine takes them: an ArrayBuffer holding exactly the view's bytes. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}
