// MCP sign-in (OAuth) in the built app, against the mock MCP server's authorization server (e2e/mock-mcp/oauth.ts):
// a server that answers 401 shows "needs sign-in"; Sign in opens the popup, which goes through the authorization
// server back to the app's callback page and closes; the server then connects with the token. A blocked popup says
// so and Try again works; Remove revokes the tokens.
import type { Page } from '@playwright/test';
import { startMockMcp, type MockMcp } from './mock-mcp/server';
import { expect, openAndConfigure, snapshot, test } from './fixtures';
import { startStaticHost, type StaticHost } from './static-host';

let mcp: MockMcp | undefined;
let host: StaticHost | undefined;
test.afterEach(async () => {
  await mcp?.close();
  await host?.close();
  mcp = host = undefined;
});

async function addServer(page: Page, name: string, url: string) {
  await page.getByTestId('settings-open').click();
  await page.getByTestId('mcp-settings').scrollIntoViewIfNeeded();
  await page.getByTestId('mcp-add').click();
  await page.getByTestId('mcp-name').fill(name);
  await page.getByTestId('mcp-url').fill(url);
  await page.getByTestId('mcp-save').click();
}

// The popup signs in on its own (the mock's /authorize asks nothing) and closes on the callback page.
async function signInThroughPopup(page: Page) {
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId('mcp-signin').click();
  const popup = await popupOpened;
  await popup.waitForEvent('close', { timeout: 20_000 });
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('signs in through the popup: needs-auth, then connected, and Remove revokes the tokens', async ({ page, mock, baseURL }) => {
      mcp = await startMockMcp({ oauth: true });
      await openAndConfigure(page, mock);
      await addServer(page, 'secure', mcp.url);
      const server = page.locator('[data-testid="mcp-server"][data-name="secure"]');
      await expect(server).toHaveAttribute('data-state', 'needs-auth', { timeout: 20_000 });
      await expect(server).toContainText('needs you to sign in');
      await snapshot(page, `mcp-needs-auth-${size.width}`);

      await signInThroughPopup(page);
      const review = page.getByTestId('mcp-review');
      await expect(review).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('mcp-review-accept').click();
      await expect(server).toHaveAttribute('data-state', 'connected');
      await snapshot(page, `mcp-signed-in-${size.width}`);

      const oauth = mcp.oauth!;
      expect(oauth.registrations.map((r) => r.redirect_uris)).toEqual([[`${baseURL}/?mcp-oauth-callback`]]);
      expect(oauth.authorizations[0]!.get('code_challenge_method')).toBe('S256');
      expect(oauth.grants).toEqual(['authorization_code']);
      expect(mcp.calls).toEqual([]);

      // The tokens are kept in the settings store: after a reload the server connects without asking again.
      await page.reload();
      await page.getByTestId('settings-open').click();
      await expect(server).toHaveAttribute('data-state', 'connected', { timeout: 20_000 });
      expect(oauth.authorizations).toHaveLength(1);

      await page.getByTestId('mcp-remove').click();
      await expect(server).toHaveCount(0);
      await expect.poll(() => oauth.revoked.length).toBe(2);
    });

    test('a blocked popup says so, and Try again signs in', async ({ page, mock }) => {
      await page.addInitScript(() => {
        const open = window.open.bind(window);
        const flags = window as unknown as { blockPopups?: boolean };
        flags.blockPopups = true;
        window.open = (...args) => (flags.blockPopups ? null : open(...args));
      });
      mcp = await startMockMcp({ oauth: true });
      await openAndConfigure(page, mock);
      await addServer(page, 'secure', mcp.url);
      const server = page.locator('[data-testid="mcp-server"][data-name="secure"]');
      await expect(server).toHaveAttribute('data-state', 'needs-auth', { timeout: 20_000 });
      await page.getByTestId('mcp-signin').click();
      await expect(server.getByTestId('mcp-error')).toContainText('blocked the sign-in window');
      await expect(page.getByTestId('mcp-signin')).toHaveText('Try again');
      await snapshot(page, `mcp-popup-blocked-${size.width}`);

      await page.evaluate(() => ((window as unknown as { blockPopups?: boolean }).blockPopups = false));
      await signInThroughPopup(page);
      await expect(page.getByTestId('mcp-review')).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('mcp-review-accept').click();
      await expect(server).toHaveAttribute('data-state', 'connected');
      await expect(server.getByTestId('mcp-error')).toHaveCount(0);
    });
  });
}

test('the sign-in comes back to the app under a folder of a static host', async ({ page, mock }) => {
  host = await startStaticHost({ isolationHeaders: true, basePath: '/team/conch/' });
  mcp = await startMockMcp({ oauth: true });
  await openAndConfigure(page, mock, { url: host.url });
  await addServer(page, 'secure', mcp.url);
  const server = page.locator('[data-testid="mcp-server"][data-name="secure"]');
  await expect(server).toHaveAttribute('data-state', 'needs-auth', { timeout: 20_000 });
  await signInThroughPopup(page);
  await expect(page.getByTestId('mcp-review')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('mcp-review-accept').click();
  await expect(server).toHaveAttribute('data-state', 'connected');
  expect(mcp.oauth!.registrations.map((r) => r.redirect_uris)).toEqual([[`${host.url}?mcp-oauth-callback`]]);
});
