// The host's answers to module:* requests: transforms, the cache behind them, and malformed requests (the guest's
// requests are untrusted) answered with errors, never a throw.

import { describe, expect, it } from 'vitest';
import type { FsRequest } from '../engine/protocol';
import { TransformCache } from './cache';
import { MAX_SOURCE_BYTES, ModuleTransformer } from './module-transformer';

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

describe('TransformCache', () => {
  const module = (size: number) => ({ code: 'x'.repeat(size), async: false });

  it('evicts the least recently used entries once it holds more bytes than its bound', () => {
    const key = (name: string) => TransformCache.keyOf('module:js', encoder.encode(name));
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

  it('keys by content: the same source hits, a changed byte or another variant misses', () => {
    expect(TransformCache.keyOf('module:js', encoder.encode('a'))).toBe(TransformCache.keyOf('module:js', encoder.encode('a')));
    expect(TransformCache.keyOf('module:js', encoder.encode('a'))).not.toBe(TransformCache.keyOf('module:js', encoder.encode('b')));
    expect(TransformCache.keyOf('module:js', encoder.encode('a'))).not.toBe(TransformCache.keyOf('commonjs:js', encoder.encode('a')));
  });
});
