// The host's answers to module:* requests: transforms, the cache behind them, and malformed requests (the guest's
// requests are untrusted) answered with errors, never a throw.

import { describe, expect, it } from 'vitest';
import type { FsRequest } from '../engine/protocol';
import { TransformCache } from './cache';
import { MAX_SOURCE_BYTES, ModuleTransformer } from './module-transformer';
import { StoredModules, type ModuleStore } from './stored-modules';

const encoder = new TextEncoder();
const request = (args: unknown[], source?: string, op = 'module:transform'): FsRequest => ({ op, args, data: source === undefined ? undefined : encoder.encode(source) });

describe('ModuleTransformer', () => {
  it('answers a transform with { code, async }, and a repeat from its cache', async () => {
    const transformer = new ModuleTransformer();
    const first = await transformer.answerModuleRequest(request(['/a.mjs', 'module'], 'export const a = await 1;'));
    expect(first).toMatchObject({ kind: 'json', value: { async: true } });
    expect(transformer.cache.size).toBe(1);
    const again = await transformer.answerModuleRequest(request(['/other/a.mjs', 'module'], 'export const a = await 1;'));
    expect(again).toEqual(first);
    expect(transformer.cache.size).toBe(1);
    await transformer.answerModuleRequest(request(['/a.cjs', 'commonjs'], 'export const a = await 1;'));
    expect(transformer.cache.size).toBe(2); // another format is another entry
  });

  it('leaves the code out of an answer that would be the source itself (a big CommonJS file is not sent back)', async () => {
    const transformer = new ModuleTransformer();
    const mentions = "// import('x')\nmodule.exports = 'import(' + 1;\n";
    expect(await transformer.answerModuleRequest(request(['/a.cjs', 'commonjs'], mentions))).toEqual({ kind: 'json', value: { async: false } });
    expect(await transformer.answerModuleRequest(request(['/a.cjs', 'commonjs'], mentions))).toEqual({ kind: 'json', value: { async: false } });
    const calls = "module.exports = () => import('./x.mjs');\n";
    expect(await transformer.answerModuleRequest(request(['/b.cjs', 'commonjs'], calls))).toEqual({ kind: 'json', value: { async: false, code: "module.exports = () => __conchImport('./x.mjs');\n" } });
  });

  it('answers a syntax error with ERR_SYNTAX, the parser message and its position', async () => {
    expect(await new ModuleTransformer().answerModuleRequest(request(['/bad.mjs', 'module'], 'let x = ;'))).toEqual({
      kind: 'error',
      code: 'ERR_SYNTAX',
      message: 'Unexpected token (1:9)',
    });
  });

  it('answers malformed requests with errors', async () => {
    const transformer = new ModuleTransformer();
    const malformed: unknown[] = [
      request(['/a.mjs', 'module'], 'x', 'module:evaluate'),
      request(['/a.mjs'], 'x'),
      request([42, 'module'], 'x'),
      request(['', 'module'], 'x'),
      request(['/a.mjs', 'wasm'], 'x'),
      request(['/a.mjs', 'module']),
      { op: 'module:transform', args: 'nope', data: encoder.encode('x') },
      { op: 'module:transform', args: ['/a.mjs', 'module'], data: 'not bytes' },
      { op: 'module:transform', args: ['/big.mjs', 'module'], data: new Uint8Array(MAX_SOURCE_BYTES + 1) },
      null,
    ];
    for (const [index, bad] of malformed.entries()) {
      const answer = await transformer.answerModuleRequest(bad as FsRequest);
      expect(answer.kind, `malformed request ${index}`).toBe('error');
    }
  });
});

describe('ModuleTransformer with a store that outlives it', () => {
  /** A store over a Map, counting what it was asked. */
  function mapStore(entries = new Map<string, Uint8Array>()): ModuleStore & { entries: Map<string, Uint8Array>; gets: number } {
    const store = {
      entries,
      gets: 0,
      get: async (key: string) => {
        store.gets++;
        return entries.get(key);
      },
      put: async (key: string, data: Uint8Array) => void entries.set(key, data),
    };
    return store;
  }
  const parsed = "import { b } from './b.mjs';\nexport const a = b + 1;\n";
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it("keeps an installed package's fully parsed module for the next runtime, which answers from it without a parse", async () => {
    const store = mapStore();
    const first = await new ModuleTransformer(undefined, new StoredModules(store)).answerModuleRequest(request(['/w/node_modules/p/a.mjs', 'module'], parsed));
    await settle();
    expect(store.entries.size).toBe(1);
    const [[key, bytes]] = store.entries;
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual((first as { value: unknown }).value);
    // The next runtime's transformer answers from the store: an entry marked here shows it did not parse again.
    store.entries.set(key, encoder.encode(JSON.stringify({ code: '/* from the store */', async: true, imports: ['./b.mjs'] })));
    const next = await new ModuleTransformer(undefined, new StoredModules(store)).answerModuleRequest(request(['/w/node_modules/p/a.mjs', 'module'], parsed));
    expect(next).toEqual({ kind: 'json', value: { code: '/* from the store */', async: true, imports: ['./b.mjs'] } });
  });

  it("stores neither the project's own modules nor those the lexer takes, and never asks the store for those", async () => {
    const store = mapStore();
    const transformer = new ModuleTransformer(undefined, new StoredModules(store));
    await transformer.answerModuleRequest(request(['/w/src/a.mjs', 'module'], parsed));
    await transformer.answerModuleRequest(request(['/w/node_modules/p/bundle.mjs', 'module'], 'var x = 1;\nexport { x };\n'));
    await transformer.answerModuleRequest(request(['/w/node_modules/p/c.cjs', 'commonjs'], "module.exports = () => import('./x.mjs');"));
    await settle();
    expect({ stored: store.entries.size, asked: store.gets, cached: transformer.cache.size }).toEqual({ stored: 0, asked: 0, cached: 3 });
  });

  it('transforms anyway when the stored entry is malformed, or the store fails or does not answer', async () => {
    const malformed = ['not json', 'null', '{"code": 1, "async": false}', '{"code": "x", "async": "yes"}', '{"code": "x", "async": true, "imports": [1]}', '{"code": "x", "async": true, "bindings": [{"name": "a"}]}'];
    const key = (await (async () => {
      const store = mapStore();
      await new ModuleTransformer(undefined, new StoredModules(store)).answerModuleRequest(request(['/w/node_modules/p/a.mjs', 'module'], parsed));
      await settle();
      return [...store.entries.keys()][0];
    })())!;
    for (const text of malformed) {
      const store = mapStore(new Map([[key, encoder.encode(text)]]));
      const answer = await new ModuleTransformer(undefined, new StoredModules(store)).answerModuleRequest(request(['/w/node_modules/p/a.mjs', 'module'], parsed));
      expect(answer, text).toMatchObject({ kind: 'json', value: { async: true, imports: ['./b.mjs'] } });
      expect((answer as { value: { code: string } }).value.code, text).toContain('exports.a');
    }
    const failing: ModuleStore = { get: () => Promise.reject(new Error('QuotaExceededError')), put: () => Promise.reject(new Error('QuotaExceededError')) };
    const silent: ModuleStore = { get: () => new Promise(() => {}), put: () => new Promise(() => {}) };
    for (const store of [failing, silent]) {
      const started = Date.now();
      const answer = await new ModuleTransformer(undefined, new StoredModules(store)).answerModuleRequest(request(['/w/node_modules/p/a.mjs', 'module'], parsed));
      expect(answer).toMatchObject({ kind: 'json', value: { imports: ['./b.mjs'] } });
      expect(Date.now() - started).toBeLessThan(3000);
    }
  });
});

describe('TransformCache', () => {
  const module = (size: number) => ({ code: 'x'.repeat(size), async: false });

  it('evicts the least recently used entries once it holds more bytes than its bound', async () => {
    const keys = new Map<string, string>();
    for (const name of ['a', 'b', 'c', 'd', 'huge']) keys.set(name, await TransformCache.keyOf('module:js', encoder.encode(name)));
    const key = (name: string) => keys.get(name)!;
    const entryBytes = (100 + key('a').length) * 2;
    const cache = new TransformCache(entryBytes * 3);
    cache.set(key('a'), module(100));
    cache.set(key('b'), module(100));
    cache.set(key('c'), module(100));
    expect(cache.get(key('a'))).toBeDefined(); // a is now the most recently used
    cache.set(key('d'), module(100));
    expect(cache.get(key('b'))).toBeUndefined();
    expect([key('a'), key('c'), key('d')].map((k) => cache.get(k) !== undefined)).toEqual([true, true, true]);
    expect(cache.bytes).toBe(entryBytes * 3);
    cache.set(key('huge'), module(entryBytes * 3));
    expect(cache.get(key('huge'))).toBeUndefined(); // larger than the whole bound: not kept, nothing evicted
    expect(cache.size).toBe(3);
  });

  it('keys by content: the same source hits, a changed byte or another variant misses', async () => {
    const key = (variant: string, text: string) => TransformCache.keyOf(variant, encoder.encode(text));
    expect(await key('module:js', 'a')).toBe(await key('module:js', 'a'));
    expect(await key('module:js', 'a')).not.toBe(await key('module:js', 'b'));
    expect(await key('module:js', 'a')).not.toBe(await key('commonjs:js', 'a'));
    expect(await key('module:js', 'a')).toMatch(/^[0-9a-f]{40}$/);
  });
});
