// Sign-in in the app, against the mock MCP server's authorization server: Settings' "Sign in" on a server that
// needs it opens the popup, the flow runs, the tokens land in the settings store and the server connects; a blocked
// popup says so and the next click tries again; Remove revokes the tokens and forgets them.
import { afterEach, expect, it } from 'vitest';
import { startMockMcp, type MockMcp, type MockMcpOptions } from '../../../e2e/mock-mcp/server';
import { defaultSettings, settingsSecrets, type Settings } from '../settings/settings';
import { McpServers } from './mcp-servers.svelte';
import { newServerConfig } from './mcp-settings';
import { mcpSignInOnDemand } from './signin-on-demand';

const REDIRECT = 'https://conch.example/app/?mcp-oauth-callback';

let mock: MockMcp | undefined;
let servers: McpServers | undefined;
afterEach(async () => {
  servers?.dispose();
  await mock?.close();
  mock = servers = undefined;
});

type FakePopup = { location: { href: string }; closed: boolean; close(): void; document: { title: string; body: { textContent: string } } };

async function setUp(mockOptions: MockMcpOptions = { oauth: true }) {
  mock = await startMockMcp(mockOptions);
  let settings: Settings = defaultSettings();
  const popups: FakePopup[] = [];
  let blocked = false;
  let navigated: (url: string) => void = () => undefined;
  const signIn = mcpSignInOnDemand({
    fetch,
    redirectUrl: REDIRECT,
    records: () => settings.mcpOAuth,
    storeRecords: async (mcpOAuth) => void (settings = { ...settings, mcpOAuth }),
    openPopup: () => {
      if (blocked) return null;
      const popup: FakePopup = {
        location: { set href(url: string) { navigated(url); }, get href() { return 'about:blank'; } },
        closed: false,
        close() { this.closed = true; },
        document: { title: '', body: { textContent: '' } },
      };
      popups.push(popup);
      return popup as unknown as Window;
    },
    // The popup's trip: the mock's /authorize redirects straight to the callback page, which hands its URL back.
    waitForCallback: (signal) => new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new Error('The sign-in was cancelled.')));
      navigated = (url) => void fetch(url, { redirect: 'manual' }).then((r) => resolve(new URL(r.headers.get('location')!)));
    }),
  });
  const mcp = new McpServers({
    settings: () => settings,
    store: async (change) => void (settings = { ...settings, ...change }),
    ...signIn,
  });
  servers = mcp;
  await mcp.save(newServerConfig({ name: 'secure', url: mock.url, headers: [], connectOnStart: true }));
  return { mcp, mock, popups, settings: () => settings, block: (on: boolean) => (blocked = on) };
}

it('signs in from the needs-auth state through the popup, keeps the tokens in settings only, and connects', async () => {
  const { mcp, mock, popups, settings } = await setUp();
  const id = mcp.servers[0]!.config.id;
  expect(mcp.servers[0]!.state.state).toBe('needs-auth');

  await mcp.signIn(id);
  expect(popups).toHaveLength(1);
  expect(popups[0]!.closed).toBe(true);
  expect(mock.oauth!.grants).toEqual(['authorization_code']);
  expect(mcp.servers[0]!.state).toMatchObject({ state: 'connected' });
  const tokens = settings().mcpOAuth[id]!.tokens!;
  expect(settingsSecrets(settings())).toEqual(expect.arrayContaining([tokens.access_token, tokens.refresh_token]));
});

it('says when the popup was blocked, and the next click tries again', async () => {
  const { mcp, popups, block } = await setUp();
  const id = mcp.servers[0]!.config.id;
  block(true);
  await mcp.signIn(id);
  expect(mcp.servers[0]!.state.state).toBe('needs-auth');
  expect(mcp.servers[0]!.signInProblem).toMatch(/blocked the sign-in window for "secure".*Try again/);
  expect(popups).toHaveLength(0);

  block(false);
  await mcp.signIn(id);
  expect(mcp.servers[0]!.state).toMatchObject({ state: 'connected' });
  expect(mcp.servers[0]!.signInProblem).toBeUndefined();
});

it('a second click starts the sign-in again, and the first one, cancelled, says nothing', async () => {
  const { mcp, popups } = await setUp();
  const id = mcp.servers[0]!.config.id;
  const first = mcp.signIn(id);
  expect(mcp.servers[0]!.signingIn).toBe(true);
  const second = mcp.signIn(id);
  await Promise.all([first, second]);
  expect(popups).toHaveLength(2);
  expect(popups.every((p) => p.closed)).toBe(true);
  expect(mcp.servers[0]!.state).toMatchObject({ state: 'connected' });
  expect(mcp.servers[0]!.signInProblem).toBeUndefined();
});

it('revokes and forgets the tokens when the server is removed', async () => {
  const { mcp, mock, settings } = await setUp();
  const id = mcp.servers[0]!.config.id;
  await mcp.signIn(id);
  const tokens = settings().mcpOAuth[id]!.tokens!;
  await mcp.remove(id);
  expect(mock.oauth!.revoked).toEqual([tokens.refresh_token, tokens.access_token]);
  expect(settings().mcpOAuth).toEqual({});
});

it('a server that answers 401 without any OAuth metadata needs sign-in, and signing in says why it cannot', async () => {
  const { mcp } = await setUp({ status: 401 });
  const id = mcp.servers[0]!.config.id;
  expect(mcp.servers[0]!.state.state).toBe('needs-auth');
  await mcp.signIn(id);
  expect(mcp.servers[0]!.state.state).toBe('needs-auth');
  expect(mcp.servers[0]!.signInProblem).toMatch(/^Signing in to the MCP server "secure" failed: it may not offer OAuth sign-in .* add it as a header/);
});
