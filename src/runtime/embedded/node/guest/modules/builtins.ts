// Node's core modules inside the guest, by name: each is built on first require. Modules the embedded runtime cannot
// offer (processes, sockets, threads, ...) throw one clear message naming the WebContainer runtime.

import { nodeError } from '../node-error';
import { assertModule, bufferModule, inspectModule, eventsModule, legacyUrlModule, pathModule, punycodeModule, streamModule, stringDecoderModule, utilModule } from './packages';
import { timers } from '../globals/timers';
import { URL, URLSearchParams } from '../globals/url';
import { format, inspect } from '../inspect';
import { createPerfHooks } from '../builtins/perf-hooks';
import { createReadline } from '../builtins/readline';
import { createTty } from '../builtins/tty';
import { createWorkerThreads } from '../builtins/worker-threads';

/** Modules Node has that the embedded runtime does not. */
const UNAVAILABLE = new Set([
  'cluster',
  'dgram',
  'diagnostics_channel',
  'dns',
  'dns/promises',
  'domain',
  'http',
  'http2',
  'https',
  'inspector',
  'inspector/promises',
  'net',
  'repl',
  'tls',
  'trace_events',
  'vm',
  'wasi',
  'zlib',
  'async_hooks',
]);

/** Only reachable with the `node:` prefix, as in Node. */
const PREFIX_ONLY = new Set(['test', 'test/reporters', 'sea', 'sqlite']);

export type BuiltinFactories = Record<string, () => unknown>;

/** The core modules that need the process (fs, process, os, module, test, console, child_process): given by main.ts. */
export type ProcessBoundModules = {
  fs: () => Record<string, unknown>;
  process: () => unknown;
  os: () => unknown;
  crypto: () => unknown;
  test: () => unknown;
  console: () => unknown;
  module: () => unknown;
  v8: () => unknown;
  childProcess: () => unknown;
};

export class Builtins {
  private readonly cache = new Map<string, unknown>();
  private readonly factories: BuiltinFactories;

  constructor(bound: ProcessBoundModules) {
    const timersPromises = () => ({
      setTimeout: (ms?: number, value?: unknown) => new Promise((resolve) => timers.setTimeout(() => resolve(value), ms)),
      setImmediate: (value?: unknown) => new Promise((resolve) => timers.setImmediate(() => resolve(value))),
      setInterval: async function* (ms?: number, value?: unknown) {
        for (;;) {
          await new Promise((resolve) => timers.setTimeout(resolve, ms));
          yield value;
        }
      },
      scheduler: { wait: (ms: number) => new Promise((resolve) => timers.setTimeout(resolve, ms)), yield: () => new Promise((resolve) => timers.setImmediate(resolve)) },
    });
    const util = () => {
      const base = utilModule();
      return {
        ...base,
        format,
        formatWithOptions: inspectModule().formatWithOptions,
        inspect: Object.assign((value: unknown, options?: object) => inspect(value, options), inspectModule().inspect),
        types: { ...base.types, isPromise: (value: unknown) => value instanceof Promise },
        isDeepStrictEqual: (a: unknown, b: unknown) => {
          try {
            const assert: { deepStrictEqual(x: unknown, y: unknown): void } = assertModule();
            assert.deepStrictEqual(a, b);
            return true;
          } catch {
            return false;
          }
        },
        stripVTControlCharacters: (text: string) => text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, ''),
        parseArgs: undefined,
        TextEncoder,
        TextDecoder,
      };
    };
    const url = () => ({
      ...legacyUrlModule(),
      URL,
      URLSearchParams,
      fileURLToPath: (value: unknown) => {
        const parsed = value instanceof URL ? value : new URL(String(value));
        if (parsed.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
        return decodeURIComponent(parsed.pathname);
      },
      pathToFileURL: (path: string) => new URL(`file://${encodeURI(pathModule().resolve(String(path))).replace(/\?/g, '%3F').replace(/#/g, '%23')}`),
    });
    const assert = () => assertModule();
    const strictAssert = () => (assertModule() as unknown as { strict: unknown }).strict;
    const path = () => {
      const posix = pathModule() as unknown as Record<string, unknown>;
      return Object.assign(posix, { posix, win32: posix });
    };
    const stream = () => streamModule();
    this.factories = {
      assert,
      'assert/strict': strictAssert,
      buffer: () => bufferModule(),
      child_process: bound.childProcess,
      console: bound.console,
      constants: () => ({ ...(bound.fs().constants as object) }),
      crypto: bound.crypto,
      events: () => {
        const events = eventsModule() as unknown as Record<string, unknown> & { EventEmitter: unknown };
        return Object.assign(events, { default: events.EventEmitter });
      },
      fs: bound.fs,
      'fs/promises': () => bound.fs().promises,
      module: bound.module,
      os: bound.os,
      path,
      'path/posix': path,
      perf_hooks: () => createPerfHooks(globalThis.performance),
      process: bound.process,
      punycode: punycodeModule,
      readline: createReadline,
      'readline/promises': () => (this.load('readline') as { promises: unknown }).promises,
      querystring: () => ({
        parse: (text: string) => Object.fromEntries(new URLSearchParams(text)),
        stringify: (object: Record<string, string>) => new URLSearchParams(object).toString(),
        escape: encodeURIComponent,
        unescape: decodeURIComponent,
      }),
      stream,
      'stream/promises': () => {
        const s = stream() as unknown as { pipeline: (...args: unknown[]) => void; finished: (...args: unknown[]) => void };
        return {
          pipeline: (...streams: unknown[]) => new Promise((resolve, reject) => s.pipeline(...streams, (error: unknown) => (error ? reject(error) : resolve(undefined)))),
          finished: (target: unknown) => new Promise((resolve, reject) => s.finished(target, (error: unknown) => (error ? reject(error) : resolve(undefined)))),
        };
      },
      string_decoder: () => stringDecoderModule(),
      test: bound.test,
      timers: () => ({ ...timers, promises: timersPromises() }),
      'timers/promises': timersPromises,
      tty: createTty,
      url,
      util,
      'util/types': () => util().types,
      v8: bound.v8,
      worker_threads: createWorkerThreads,
    };
  }

  /** True when `request` (with or without `node:`) names a core module, available or not. */
  has(request: string): boolean {
    const name = request.startsWith('node:') ? request.slice(5) : request;
    if (!request.startsWith('node:') && PREFIX_ONLY.has(name)) return false;
    return name in this.factories || UNAVAILABLE.has(name) || PREFIX_ONLY.has(name);
  }

  /** The module's exports; throws for modules the embedded runtime does not have. */
  load(request: string): unknown {
    const name = request.startsWith('node:') ? request.slice(5) : request;
    if (this.cache.has(name)) return this.cache.get(name);
    const factory = this.factories[name];
    if (!factory) {
      if (UNAVAILABLE.has(name) || PREFIX_ONLY.has(name)) throw unavailable(name);
      throw nodeError(Error, 'ERR_UNKNOWN_BUILTIN_MODULE', `No such built-in module: ${request}`);
    }
    const value = factory();
    this.cache.set(name, value);
    return value;
  }

  names(): string[] {
    return [...Object.keys(this.factories), ...UNAVAILABLE];
  }
}

function unavailable(name: string): Error {
  return nodeError(Error, 'ERR_CONCH_UNAVAILABLE', `\`${name}\` is not available in Conch's embedded runtime; use the WebContainer runtime for it`);
}
