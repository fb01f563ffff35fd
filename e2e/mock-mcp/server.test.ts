import { afterEach, expect, it } from 'vitest';
import { startMockMcp, type MockMcp } from './server';

let mock: MockMcp | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

it('answers preflights with CORS headers that expose Mcp-Session-Id, and none when made without CORS', async () => {
  mock = await startMockMcp();
  const preflight = await fetch(mock.url, { method: 'OPTIONS' });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  expect(preflight.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id');
  await mock.close();
  mock = await startMockMcp({ cors: false });
  expect((await fetch(mock.url, { method: 'OPTIONS' })).headers.get('access-control-allow-origin')).toBeNull();
});

it('an unknown session gets 404, a request before initialize 400', async () => {
  mock = await startMockMcp();
  const post = (headers: Record<string, string>) => fetch(mock!.url, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect((await post({ 'mcp-session-id': 'nope' })).status).toBe(404);
  expect((await post({})).status).toBe(400);
});
