// URL and URLSearchParams inside the guest: parsing and serialising are the engine's (the browser's or Node's own
// URL, through host.parseUrl); URLSearchParams is the form-encoding of the URL standard.

import { host } from '../host';
import { nodeError } from '../node-error';

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

