// The mock provider's HTTP surface as a browser test would use it: CORS, control endpoints, rule-chosen turns.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from './server';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());

it('answers preflight with every requested header, and cross-origin resource policy', async () => {
  const response = await fetch(`${mock.url}/v1/messages`, {
    method: 'OPTIONS',
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-api-key,anthropic-version,anthropic-dangerous-direct-browser-access' },
  });
  expect(response.status).toBe(204);
  expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  expect(response.headers.get('access-control-allow-headers')).toContain('anthropic-dangerous-direct-browser-access');
  expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
});

it('loads a script over HTTP, picks turns by rule, and records requests', async () => {
  const post = (path: string, body: unknown) =>
    fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await post('/__mock/reset', {});
  const bad = await post('/__mock/script', { turns: [{ nope: true }] });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/content/);
  const ok = await post('/__mock/script', { turns: [
    { when: { lastToolResultContains: 'PASS' }, content: [{ type: 'text', text: 'tests pass' }] },
    { content: [{ type: 'text', text: 'first' }] },
  ] });
  expect(await ok.json()).toEqual({ ok: true, turns: 2 });

  const chat = (messages: unknown[]) => post('/v1/chat/completions', { model: 'm', stream: true, messages });
  const first = await (await chat([{ role: 'user', content: 'hi' }])).text();
  expect(first).toContain('"content":"fi"');
  expect(first).toContain('"finish_reason":"stop"');
  expect(first.trim().endsWith('data: [DONE]')).toBe(true);
  const second = await (await chat([{ role: 'tool', tool_call_id: 'c', content: 'PASS 3 tests' }])).text();
  expect(second).toContain('"content":"test"');
  const none = await chat([{ role: 'user', content: 'again' }]);
  expect(none.status).toBe(400);

  const recorded = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as { path: string; status: number; turn?: number }[];
  expect(recorded.map((r) => [r.path, r.status, r.turn])).toEqual([
    ['/v1/chat/completions', 200, 1], ['/v1/chat/completions', 200, 0], ['/v1/chat/completions', 400, undefined],
  ]);
});

it('streams text as the given deltas, at a steady frame interval', async () => {
  mock.setScript([{ content: [{ type: 'text', text: 'one two three four', deltas: ['one ', 'two ', 'three ', 'four'] }], frameIntervalMs: 25 }]);
  const started = Date.now();
  const response = await fetch(`${mock.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'go' }] }),
  });
  const body = await response.text();
  const elapsed = Date.now() - started;
  const contents = [...body.matchAll(/"content":"([^"]+)"/g)].map((m) => m[1]);
  expect(contents).toEqual(['one ', 'two ', 'three ', 'four']);
  // role frame, four deltas, finish, [DONE]: six intervals at least.
  expect(elapsed).toBeGreaterThanOrEqual(6 * 25 - 5);
});
