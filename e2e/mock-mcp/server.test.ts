import { createHash } from 'node:crypto';
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
  expect(preflight.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, WWW-Authenticate');
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

it('with oauth, answers 401 with resource_metadata until a token it issued is sent, and checks PKCE', async () => {
  mock = await startMockMcp({ oauth: true });
  const origin = new URL(mock.url).origin;
  const unauthorized = await fetch(mock.url, { method: 'POST', body: '{}' });
  expect(unauthorized.status).toBe(401);
  expect(unauthorized.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`);
  expect(await (await fetch(`${origin}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: mock.url, authorization_servers: [origin] });

  const redirect = 'http://app.example/?mcp-oauth-callback';
  const client = (await (await fetch(`${origin}/register`, { method: 'POST', body: JSON.stringify({ redirect_uris: [redirect] }) })).json()) as { client_id: string };
  const verifier = 'v'.repeat(43);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = new URL(`${origin}/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state: 's' })) authorize.searchParams.set(k, v);
  const code = () => fetch(authorize, { redirect: 'manual' }).then((r) => new URL(r.headers.get('location')!).searchParams.get('code')!);
  const token = (code: string, codeVerifier: string) => fetch(`${origin}/token`, {
    method: 'POST', body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, client_id: client.client_id, redirect_uri: redirect }),
  });
  const wrong = await token(await code(), 'w'.repeat(43));
  expect(wrong.status).toBe(400);
  expect(await wrong.json()).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('PKCE') });
  const good = (await (await token(await code(), verifier)).json()) as { access_token: string };
  const authorized = await fetch(mock.url, {
    method: 'POST', headers: { authorization: `Bearer ${good.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(authorized.status).toBe(400); // past the 401: the MCP endpoint's own "initialize first"
});
