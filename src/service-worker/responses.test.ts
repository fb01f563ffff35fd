import { describe, expect, it } from 'vitest';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from '../runtime/cross-origin-isolation';
import { cacheName, handles, isOldCache, withIsolationHeaders } from './responses';

describe('service worker responses', () => {
  it('handles only same-origin GETs: provider calls, SSE and the registry go to the network untouched', () => {
    const origin = 'https://conch.example';
    expect(handles(new Request('https://conch.example/assets/app.js'), origin)).toBe(true);
    expect(handles(new Request('https://conch.example/'), origin)).toBe(true);
    expect(handles(new Request('https://conch.example/x', { method: 'POST', body: '{}' }), origin)).toBe(false);
    expect(handles(new Request('https://api.anthropic.com/v1/messages'), origin)).toBe(false);
    expect(handles(new Request('https://registry.npmjs.org/tape'), origin)).toBe(false);
    expect(handles(new Request('http://localhost:11434/api/chat'), origin)).toBe(false);
  });

  it('adds the isolation headers from their one source, keeping status, body and the other headers', async () => {
    const served = withIsolationHeaders(new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    for (const [name, value] of Object.entries(CROSS_ORIGIN_ISOLATION_HEADERS)) expect(served.headers.get(name)).toBe(value);
    expect(served.headers.get('Content-Type')).toBe('text/html');
    expect(await served.text()).toBe('<!doctype html>');
    expect(withIsolationHeaders(new Response(null, { status: 304 })).status).toBe(304);
  });

  it('names one cache per build and deletes only earlier builds\' caches', () => {
    expect(cacheName('abc')).toBe('conch-abc');
    expect(isOldCache('conch-old', 'abc')).toBe(true);
    expect(isOldCache('conch-abc', 'abc')).toBe(false);
    expect(isOldCache('someone-else', 'abc')).toBe(false);
  });
});
