// The web-platform globals Node has and QuickJS lacks: TextEncoder/TextDecoder, URL and URLSearchParams (parsed by
// the engine's own URL implementation), atob/btoa, structuredClone, EventTarget, AbortController, performance and
// crypto.getRandomValues/randomUUID. Deliberately absent: fetch, and everything of the page (document, storage).

import { host, toArrayBuffer } from './host';
import { bufferModule } from './packages';
import { nodeError } from './node-error';

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

/** application/x-www-form-urlencoded pairs, as the URL standard defines them. */
export class URLSearchParams {
  private pairs: [string, string][] = [];
  /** Called after a change, so a URL's search follows its searchParams. */
  onChange?: () => void;

  constructor(init?: unknown) {
    if (init == null) return;
    if (typeof init === 'string') this.pairs = parseQuery(init);
    else if (init instanceof URLSearchParams) this.pairs = init.pairs.map(([k, v]) => [k, v]);
    else if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const pair of init as Iterable<[unknown, unknown]>) this.pairs.push([String(pair[0]), String(pair[1])]);
    } else for (const [key, value] of Object.entries(init as object)) this.pairs.push([key, String(value)]);
  }
  get size(): number {
    return this.pairs.length;
  }
  append(name: string, value: string): void {
    this.pairs.push([String(name), String(value)]);
    this.onChange?.();
  }
  delete(name: string): void {
    this.pairs = this.pairs.filter(([key]) => key !== String(name));
    this.onChange?.();
  }
  get(name: string): string | null {
    return this.pairs.find(([key]) => key === String(name))?.[1] ?? null;
  }
  getAll(name: string): string[] {
    return this.pairs.filter(([key]) => key === String(name)).map(([, value]) => value);
  }
  has(name: string): boolean {
    return this.pairs.some(([key]) => key === String(name));
  }
  set(name: string, value: string): void {
    const index = this.pairs.findIndex(([key]) => key === String(name));
    if (index < 0) this.pairs.push([String(name), String(value)]);
    else {
      this.pairs[index] = [String(name), String(value)];
      this.pairs = this.pairs.filter(([key], i) => i <= index || key !== String(name));
    }
    this.onChange?.();
  }
  sort(): void {
    this.pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.onChange?.();
  }
  forEach(callback: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: unknown): void {
    for (const [key, value] of this.pairs) callback.call(thisArg, value, key, this);
  }
  keys(): IterableIterator<string> {
    return this.pairs.map(([key]) => key)[Symbol.iterator]();
  }
  values(): IterableIterator<string> {
    return this.pairs.map(([, value]) => value)[Symbol.iterator]();
  }
  entries(): IterableIterator<[string, string]> {
    return this.pairs.map(([key, value]) => [key, value] as [string, string])[Symbol.iterator]();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
  toString(): string {
    return this.pairs.map(([key, value]) => `${encodeQuery(key)}=${encodeQuery(value)}`).join('&');
  }
  get [Symbol.toStringTag](): string {
    return 'URLSearchParams';
  }
}

function parseQuery(query: string): [string, string][] {
  const text = query.startsWith('?') ? query.slice(1) : query;
  return text
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const eq = part.indexOf('=');
      const decode = (s: string) => {
        try {
          return decodeURIComponent(s.replace(/\+/g, ' '));
        } catch {
          return s;
        }
      };
      return eq < 0 ? [decode(part), ''] : [decode(part.slice(0, eq)), decode(part.slice(eq + 1))];
    });
}

function encodeQuery(text: string): string {
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

type UrlParts = {
  href: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
  origin: string;
};

function parseUrl(input: unknown, base?: unknown): UrlParts {
  const parts = host.parseUrl(String(input), base === undefined ? undefined : String(base));
  if (parts === '') throw nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  return JSON.parse(parts) as UrlParts;
}

/** A WHATWG URL; parsing and serialising are the engine's (the browser's or Node's own URL). */
export class URL {
  private parts: UrlParts;
  private params: URLSearchParams;

  constructor(input: unknown, base?: unknown) {
    this.parts = parseUrl(input instanceof URL ? input.href : input, base instanceof URL ? base.href : base);
    this.params = this.linkedParams();
  }
  static canParse(input: unknown, base?: unknown): boolean {
    return host.parseUrl(String(input), base === undefined ? undefined : String(base)) !== '';
  }
  private linkedParams(): URLSearchParams {
    const params = new URLSearchParams(this.parts.search);
    params.onChange = () => {
      const query = params.toString();
      this.parts = parseUrl(`${this.parts.href.replace(/[?#].*$/, '')}${query ? `?${query}` : ''}${this.parts.hash}`);
    };
    return params;
  }
  private update(part: keyof UrlParts, value: string): void {
    const parts = { ...this.parts, [part]: value };
    const auth = parts.username ? `${parts.username}${parts.password ? `:${parts.password}` : ''}@` : '';
    const hostPart = part === 'host' ? value : part === 'hostname' || part === 'port' ? `${parts.hostname}${parts.port ? `:${parts.port}` : ''}` : parts.host;
    const search = parts.search && !parts.search.startsWith('?') ? `?${parts.search}` : parts.search;
    const hash = parts.hash && !parts.hash.startsWith('#') ? `#${parts.hash}` : parts.hash;
    const protocol = parts.protocol.endsWith(':') ? parts.protocol : `${parts.protocol}:`;
    const slashes = this.parts.href.startsWith(`${this.parts.protocol}//`) ? '//' : '';
    this.parts = parseUrl(`${protocol}${slashes}${auth}${hostPart}${parts.pathname}${search}${hash}`);
    if (part === 'search') this.params = this.linkedParams();
  }
  get href(): string {
    return this.parts.href;
  }
  set href(value: string) {
    this.parts = parseUrl(value);
    this.params = this.linkedParams();
  }
  get origin(): string {
    return this.parts.origin;
  }
  get protocol(): string {
    return this.parts.protocol;
  }
  set protocol(value: string) {
    this.update('protocol', value);
  }
  get username(): string {
    return this.parts.username;
  }
  set username(value: string) {
    this.update('username', value);
  }
  get password(): string {
    return this.parts.password;
  }
  set password(value: string) {
    this.update('password', value);
  }
  get host(): string {
    return this.parts.host;
  }
  set host(value: string) {
    this.update('host', value);
  }
  get hostname(): string {
    return this.parts.hostname;
  }
  set hostname(value: string) {
    this.update('hostname', value);
  }
  get port(): string {
    return this.parts.port;
  }
  set port(value: string) {
    this.update('port', String(value));
  }
  get pathname(): string {
    return this.parts.pathname;
  }
  set pathname(value: string) {
    this.update('pathname', value.startsWith('/') ? value : `/${value}`);
  }
  get search(): string {
    return this.parts.search;
  }
  set search(value: string) {
    this.update('search', value);
  }
  get searchParams(): URLSearchParams {
    return this.params;
  }
  get hash(): string {
    return this.parts.hash;
  }
  set hash(value: string) {
    this.update('hash', value);
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
  get [Symbol.toStringTag](): string {
    return 'URL';
  }
}

export class Event {
  readonly type: string;
  defaultPrevented = false;
  readonly cancelable: boolean;
  readonly timeStamp = host.now();
  target: unknown = null;
  currentTarget: unknown = null;
  constructor(type: string, init: { cancelable?: boolean } = {}) {
    this.type = String(type);
    this.cancelable = init.cancelable === true;
  }
  preventDefault(): void {
    if (this.cancelable) this.defaultPrevented = true;
  }
  stopPropagation(): void {}
  stopImmediatePropagation(): void {}
}

type EventListenerEntry = { listener: unknown; once: boolean };

export class EventTarget {
  private readonly listeners = new Map<string, EventListenerEntry[]>();
  addEventListener(type: string, listener: unknown, options?: boolean | { once?: boolean }): void {
    if (!listener) return;
    const list = this.listeners.get(type) ?? [];
    if (list.some((entry) => entry.listener === listener)) return;
    list.push({ listener, once: typeof options === 'object' && options?.once === true });
    this.listeners.set(type, list);
  }
  removeEventListener(type: string, listener: unknown): void {
    this.listeners.set(type, (this.listeners.get(type) ?? []).filter((entry) => entry.listener !== listener));
  }
  dispatchEvent(event: Event): boolean {
    event.target = this;
    event.currentTarget = this;
    const handler = (this as unknown as Record<string, unknown>)[`on${event.type}`];
    if (typeof handler === 'function') handler.call(this, event);
    for (const entry of [...(this.listeners.get(event.type) ?? [])]) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      const listener = entry.listener as ((event: Event) => void) | { handleEvent(event: Event): void };
      if (typeof listener === 'function') listener.call(this, event);
      else listener.handleEvent(event);
    }
    return !event.defaultPrevented;
  }
}

export class DOMException extends Error {
  constructor(message = '', readonly name_ = 'Error') {
    super(message);
    this.name = name_;
  }
}

export class AbortSignal extends EventTarget {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  static abort(reason?: unknown): AbortSignal {
    const controller = new AbortController();
    controller.abort(reason);
    return controller.signal;
  }
  static timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return controller.signal;
  }
  static any(signals: AbortSignal[]): AbortSignal {
    const controller = new AbortController();
    for (const signal of signals) {
      if (signal.aborted) controller.abort(signal.reason);
      else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
    }
    return controller.signal;
  }
}

export class AbortController {
  readonly signal = new AbortSignal();
  abort(reason?: unknown): void {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    this.signal.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    this.signal.dispatchEvent(new Event('abort'));
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
  Object.assign(global, {
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
