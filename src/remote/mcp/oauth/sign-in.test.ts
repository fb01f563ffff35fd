// The OAuth sign-in against the mock MCP server's authorization server (e2e/mock-mcp/oauth.ts) over Node's fetch:
// the whole flow from a 401 to a connected server, refresh after expiry, revocation on remove, a wrong state refused.
import { afterEach, expect, it } from 'vitest';
import { startMockMcp, type MockMcp } from '../../../../e2e/mock-mcp/server';
import type { MockOAuthOptions } from '../../../../e2e/mock-mcp/oauth';
import { connectMcpServer } from '../connect';
import type { McpConnection, McpServerConfig } from '../types';
import type { McpOAuthRecord, McpOAuthStore } from './credentials';
import { McpOAuthProvider } from './provider';
import { forgetMcpSignIn } from './revoke';
import { signInToMcp } from './sign-in';

const REDIRECT = 'https://conch.example/app/?mcp-oauth-callback';

let mock: MockMcp | undefined;
let connection: McpConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await mock?.close();
  connection = mock = undefined;
});

class MemoryStore implements McpOAuthStore {
  records = new Map<string, McpOAuthRecord>();
  read(id: string) {
    return this.records.get(id);
  }
  async write(id: string, record: McpOAuthRecord | undefined) {
    if (record) this.records.set(id, structuredClone(record));
    else this.records.delete(id);
  }
}

async function setUp(oauth: MockOAuthOptions = {}) {
  mock = await startMockMcp({ oauth });
  const config: McpServerConfig = { id: 's1', name: 'secure', url: mock.url, headers: [], connectOnStart: true };
  const store = new MemoryStore();
  const provider = new McpOAuthProvider(config.id, store, { redirectUrl: REDIRECT, clientName: 'Conch' });
  return { mock, config, store, provider };
}

// The person's part, as the mock asks nothing: the authorization URL redirects straight to the callback.
async function followAuthorization(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function connectWith(config: McpServerConfig, provider: McpOAuthProvider) {
  await connection?.close();
  connection = await connectMcpServer(config, { fetch, authProvider: provider });
  return connection;
}

it('goes from a 401 through discovery, registration and PKCE to a token, and then connects', async () => {
  const { mock, config, store, provider } = await setUp();
  expect((await connectWith(config, provider)).state.state).toBe('needs-auth');
  const opened: URL[] = [];
  await signInToMcp(config, provider, { fetch, openAuthorization: (url) => (opened.push(url), followAuthorization(url)) });

  expect(mock.oauth!.registrations).toHaveLength(1);
  expect(mock.oauth!.registrations[0]).toMatchObject({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
  const query = opened[0]!.searchParams;
  expect(opened[0]!.origin + opened[0]!.pathname).toBe(new URL(mock.url).origin + '/authorize');
  expect(query.get('code_challenge_method')).toBe('S256');
  expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(query.get('state')).toMatch(/^[0-9a-f]{32}$/);
  expect(query.get('resource')).toBe(mock.url);
  expect(mock.oauth!.grants).toEqual(['authorization_code']);
  const record = store.read('s1')!;
  expect(record.tokens?.access_token).toMatch(/^at-/);
  expect(record.discovery?.resourceMetadataUrl).toBe(`${new URL(mock.url).origin}/.well-known/oauth-protected-resource/mcp`);
  expect(record.codeVerifier).toBeUndefined();
  expect(record.state).toBeUndefined();

  const connected = await connectWith(config, provider);
  expect(connected.state).toMatchObject({ state: 'connected' });
  expect(connected.tools().map((t) => t.serverName)).toContain('lookup');
});

it('refreshes an expired access token with the refresh token, without asking the person again', async () => {
  const { mock, config, store, provider } = await setUp();
  await signInToMcp(config, provider, { fetch, openAuthorization: followAuthorization });
  const first = store.read('s1')!.tokens!.access_token;
  mock.oauth!.expireTokens();

  expect((await connectWith(config, provider)).state).toMatchObject({ state: 'connected' });
  expect(mock.oauth!.grants).toEqual(['authorization_code', 'refresh_token']);
  expect(store.read('s1')!.tokens!.access_token).not.toBe(first);
  expect(mock.oauth!.authorizations).toHaveLength(1);
});

it('refreshes a token that expires while connected, and the call goes through', async () => {
  const { mock, config, provider } = await setUp();
  await signInToMcp(config, provider, { fetch, openAuthorization: followAuthorization });
  const connected = await connectWith(config, provider);
  mock.oauth!.expireTokens();
  const lookup = connected.agentTools().find((t) => t.name === 'mcp__secure__lookup')!;
  const result = await lookup.execute('call-1', { query: 'shell', limit: 1 } as never);
  expect(JSON.stringify(result.content)).toContain('shell');
  expect(mock.oauth!.grants).toEqual(['authorization_code', 'refresh_token']);
  expect(mock.calls.map((c) => c.tool)).toEqual(['lookup']);
});

it('revokes both tokens on remove and forgets them, so the server needs sign-in again', async () => {
  const { mock, config, store, provider } = await setUp();
  await signInToMcp(config, provider, { fetch, openAuthorization: followAuthorization });
  const tokens = store.read('s1')!.tokens!;

  expect(await forgetMcpSignIn('s1', store, fetch)).toEqual({ revoked: 2 });
  expect(mock.oauth!.revoked).toEqual([tokens.refresh_token, tokens.access_token]);
  expect(store.read('s1')).toBeUndefined();
  expect((await connectWith(config, provider)).state.state).toBe('needs-auth');
});

it('forgets the tokens of a server without a revocation endpoint, revoking nothing', async () => {
  const { mock, config, store, provider } = await setUp({ noRevocation: true });
  await signInToMcp(config, provider, { fetch, openAuthorization: followAuthorization });
  expect(await forgetMcpSignIn('s1', store, fetch)).toEqual({ revoked: 0 });
  expect(mock.oauth!.revoked).toEqual([]);
  expect(store.read('s1')).toBeUndefined();
});

it('refuses an answer whose state is not the one sent, and exchanges no code', async () => {
  const { mock, config, provider } = await setUp();
  const forged = async (url: URL) => {
    const callback = await followAuthorization(url);
    callback.searchParams.set('state', 'someone-else');
    return callback;
  };
  await expect(signInToMcp(config, provider, { fetch, openAuthorization: forged })).rejects.toThrow(/state differs.*Sign in again/);
  expect(mock.oauth!.grants).toEqual([]);
  expect((await connectWith(config, provider)).state.state).toBe('needs-auth');
});

it('says what the authorization server refused', async () => {
  const { config, provider } = await setUp();
  const denied = async (url: URL) => {
    const callback = new URL(REDIRECT);
    callback.searchParams.set('state', url.searchParams.get('state')!);
    callback.searchParams.set('error', 'access_denied');
    return callback;
  };
  await expect(signInToMcp(config, provider, { fetch, openAuthorization: denied })).rejects.toThrow(/refused the sign-in \(access_denied\)/);
});
