// The web-platform globals Node has and QuickJS lacks: TextEncoder/TextDecoder, URL and URLSearchParams
// (url.ts), atob/btoa, structuredClone, EventTarget and AbortController (event-target.ts), performance and
// crypto.getRandomValues/randomUUID. Deliberately absent: fetch, and everything of the page (document, storage).

import { host, toArrayBuffer } from '../host';
import { bufferModule } from '../modules/packages';
import { nodeError } from '../node-error';
import { URL, URLSearchParams } from './url';
import { AbortController, AbortSignal, DOMException, Event, EventTarget } from './event-target';
import { defineGlobals } from './define-globals';

export class TextEncoder {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    return new Uint8Array(host.encodeUtf8(String(input)));
  }
  encodeInto(input: string, destination: Uint8Array): { read: number; written: number } {
    const bytes = this.encode(input);
    const written = Math.min(bytes.length, destination.length);
    destination.set(bytes.subarray(0, written));
    return { read: written === bytes.length ? input.length : new TextDecoder().decode(bytes.subarray(0, written)).length, written };
  }
}

export class TextDecoder {
  readonly encoding: string;
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;
  constructor(label = 'utf-8', options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    const normalized = String(label).toLowerCase();
    if (!['utf-8', 'utf8', 'unicode-1-1-utf-8', 'latin1', 'ascii', 'iso-8859-1', 'utf-16le'].includes(normalized)) {
      throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${label}" encoding is not supported`);
    }
    this.encoding = normalized.startsWith('utf-8') || normalized === 'utf8' || normalized === 'unicode-1-1-utf-8' ? 'utf-8' : normalized;
    this.fatal = options.fatal === true;
    this.ignoreBOM = options.ignoreBOM === true;
  }
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (input === undefined) return '';
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    if (this.encoding !== 'utf-8') return bufferModule().Buffer.from(bytes).toString(this.encoding === 'utf-16le' ? 'utf16le' : 'latin1');
    const text = host.decodeUtf8(toArrayBuffer(bytes));
    return !this.ignoreBOM && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}

/** Fills a typed array with random bytes (crypto.getRandomValues). */
export function getRandomValues<T extends ArrayBufferView>(array: T): T {
  if (array.byteLength > 65536) {
    throw new DOMException(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`, 'QuotaExceededError');
  }
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(new Uint8Array(host.randomBytes(array.byteLength)));
  return array;
}

/** A random RFC 4122 version 4 UUID. */
export function randomUUID(): string {
  const bytes = new Uint8Array(host.randomBytes(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A deep copy by the structured clone rules, for the types programs pass around. */
export function structuredClone<T>(value: T): T {
  const seen = new Map<unknown, unknown>();
  const clone = (input: unknown): unknown => {
    if (input === null || typeof input !== 'object') {
      if (typeof input === 'function' || typeof input === 'symbol') throw new DOMException(`${String(input)} could not be cloned.`, 'DataCloneError');
      return input;
    }
    if (seen.has(input)) return seen.get(input);
    if (input instanceof Date) return new Date(input.getTime());
    if (input instanceof RegExp) return new RegExp(input.source, input.flags);
    if (input instanceof ArrayBuffer) return input.slice(0);
    if (ArrayBuffer.isView(input)) {
      const view = input as unknown as { constructor: new (b: ArrayBuffer, o: number, l: number) => unknown; buffer: ArrayBuffer; byteOffset: number; byteLength: number; length?: number };
      const copy = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
      return input instanceof DataView ? new DataView(copy) : new (input.constructor as new (b: ArrayBuffer) => unknown)(copy);
    }
    if (input instanceof Map) {
      const out = new Map();
      seen.set(input, out);
      for (const [k, v] of input) out.set(clone(k), clone(v));
      return out;
    }
    if (input instanceof Set) {
      const out = new Set();
      seen.set(input, out);
      for (const v of input) out.add(clone(v));
      return out;
    }
    if (input instanceof Error) {
      const out = new (input.constructor as ErrorConstructor)(input.message);
      seen.set(input, out);
      out.stack = input.stack;
      return out;
    }
    const out: Record<string, unknown> | unknown[] = Array.isArray(input) ? [] : {};
    seen.set(input, out);
    for (const key of Object.keys(input)) (out as Record<string, unknown>)[key] = clone((input as Record<string, unknown>)[key]);
    return out;
  };
  return clone(value) as T;
}

/** Installs the web globals on the guest's global object. */
export function installWebGlobals(global: Record<string, unknown>): void {
  const start = Date.now() - host.now();
  defineGlobals(global, {
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    Event,
    EventTarget,
    AbortController,
    AbortSignal,
    DOMException,
    structuredClone,
    queueMicrotask: (callback: () => void) => {
      if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function.');
      void Promise.resolve().then(callback);
    },
    atob: (data: string) => bufferModule().Buffer.from(String(data), 'base64').toString('latin1'),
    btoa: (data: string) => bufferModule().Buffer.from(String(data), 'latin1').toString('base64'),
    performance: {
      timeOrigin: start,
      now: () => host.now(),
      mark: () => undefined,
      measure: () => undefined,
      toJSON: () => ({ timeOrigin: start }),
    },
    crypto: { getRandomValues, randomUUID },
  });
}
