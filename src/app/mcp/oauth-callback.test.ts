// The callback page's hand-back and the signing-in page's wait for it (Node's BroadcastChannel, a fake window).
import { expect, it } from 'vitest';
import { deliverMcpOAuthCallback, waitForMcpOAuthCallback } from './oauth-callback';
import { isMcpOAuthCallback, mcpOAuthRedirectUrl } from './oauth-callback-url';

const ORIGIN = 'https://conch.example';

function fakeWindow(href: string, opener: unknown = null) {
  const target = new EventTarget();
  const url = new URL(href);
  let closed = false;
  const win = Object.assign(target, { location: { href, origin: url.origin, search: url.search }, opener, close: () => (closed = true) });
  return { win: win as unknown as Window, closed: () => closed };
}

it('is this page with the flag at whatever path the app is served from, and only that is the callback', () => {
  expect(mcpOAuthRedirectUrl({ origin: ORIGIN, pathname: '/tools/conch/' })).toBe(`${ORIGIN}/tools/conch/?mcp-oauth-callback`);
  expect(isMcpOAuthCallback({ search: '?mcp-oauth-callback&code=c&state=s' })).toBe(true);
  expect(isMcpOAuthCallback({ search: '?code=c&state=s' })).toBe(false);
});

it('hands the callback URL to the waiting page over the channel, then closes', async () => {
  const page = fakeWindow(`${ORIGIN}/app/`);
  const waiting = waitForMcpOAuthCallback(page.win, new AbortController().signal, 60_000);
  const popup = fakeWindow(`${ORIGIN}/app/?mcp-oauth-callback&code=abc&state=s1`);
  const body = { textContent: '' } as HTMLElement;
  deliverMcpOAuthCallback(popup.win, body);
  const url = await waiting;
  expect(url.searchParams.get('code')).toBe('abc');
  expect(popup.closed()).toBe(true);
  expect(body.textContent).toMatch(/Signed in/);
});

it('ignores messages from another origin or of another shape, and takes the opener\'s own', async () => {
  const page = fakeWindow(`${ORIGIN}/app/`);
  const waiting = waitForMcpOAuthCallback(page.win, new AbortController().signal, 60_000);
  const send = (origin: string, data: unknown) => page.win.dispatchEvent(new MessageEvent('message', { origin, data }));
  send('https://evil.example', { type: 'conch-mcp-oauth-callback', url: `${ORIGIN}/app/?mcp-oauth-callback&code=evil&state=s` });
  send(ORIGIN, { type: 'conch-mcp-oauth-callback', url: 'https://evil.example/?mcp-oauth-callback&code=evil' });
  send(ORIGIN, { type: 'something-else', url: `${ORIGIN}/app/?mcp-oauth-callback&code=evil` });
  send(ORIGIN, { type: 'conch-mcp-oauth-callback', url: `${ORIGIN}/app/?mcp-oauth-callback&code=good&state=s` });
  expect((await waiting).searchParams.get('code')).toBe('good');
});

it('stops waiting when cancelled or after its time', async () => {
  const page = fakeWindow(`${ORIGIN}/app/`);
  const cancel = new AbortController();
  const cancelled = waitForMcpOAuthCallback(page.win, cancel.signal, 60_000);
  cancel.abort();
  await expect(cancelled).rejects.toThrow(/cancelled/);
  await expect(waitForMcpOAuthCallback(page.win, new AbortController().signal, 20)).rejects.toThrow(/not finished within/);
});
