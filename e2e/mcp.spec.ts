// Remote MCP servers in the built app, against the loopback mock MCP server (e2e/mock-mcp) and the mock provider: add
// a server in Settings, review its tools, let the agent call one (the result reaches the next request), a server
// without CORS saying so plainly, and a server killed mid-session giving an error result while the run goes on.
import type { Page } from '@playwright/test';
import { startMockMcp, type MockMcp } from './mock-mcp/server';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

let mcp: MockMcp | undefined;
test.afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

async function addServer(page: Page, name: string, url: string, header?: { name: string; value: string }) {
  await page.getByTestId('settings-open').click();
  const section = page.getByTestId('mcp-settings');
  await section.scrollIntoViewIfNeeded();
  await page.getByTestId('mcp-add').click();
  await page.getByTestId('mcp-name').fill(name);
  await page.getByTestId('mcp-url').fill(url);
  if (header) {
    await page.getByTestId('mcp-header-name').fill(header.name);
    await page.getByTestId('mcp-header-value').fill(header.value);
    await expect(page.getByTestId('mcp-header-value')).toHaveAttribute('type', 'password');
  }
  await page.getByTestId('mcp-save').click();
}

async function closeSettings(page: Page) {
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('adds a server, reviews its tools, and the agent calls one: its result reaches the next request', async ({ page, mock }) => {
      mcp = await startMockMcp();
      await openAndConfigure(page, mock);
      await addServer(page, 'mock', mcp.url, { name: 'Authorization', value: 'Bearer mcp-e2e-secret' });

      const review = page.getByTestId('mcp-review');
      await expect(review).toBeVisible({ timeout: 20_000 });
      await expect(review.locator('[data-testid="mcp-review-tool"][data-name="mcp__mock__lookup"]')).toContainText('Looks a word up in the mock dictionary.');
      await snapshot(page, `mcp-review-${size.width}`);
      await page.getByTestId('mcp-review-accept').click();
      await expect(review).toBeHidden();
      const server = page.locator('[data-testid="mcp-server"][data-name="mock"]');
      await expect(server).toHaveAttribute('data-state', 'connected');
      await expect(server).toContainText(/Connected with \d+ tools/);
      await snapshot(page, `mcp-settings-${size.width}`);
      await closeSettings(page);

      mock.setScript([callTurn('mcp__mock__lookup', { query: 'shell', limit: 2 }), textTurn('The dictionary knows it.')]);
      await ask(page, 'Look up shell');
      await expect(page.getByTestId('approval-always-server')).toBeVisible({ timeout: 20_000 });
      await page.getByTestId('approval-allow').click();
      const card = page.locator('[data-testid="tool-call"][data-tool="mcp__mock__lookup"]');
      await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
      await expect(page.getByTestId('message').filter({ hasText: 'The dictionary knows it.' })).toBeVisible();
      expect(mcp.calls.map((c) => c.tool)).toEqual(['lookup']);
      expect(mock.requests).toHaveLength(2);
      const tools = JSON.stringify((mock.requests[0].body as { tools?: unknown }).tools);
      expect(tools).toContain('mcp__mock__lookup');
      expect(JSON.stringify(mock.requests[1].body)).toContain('found 2 for shell');
      // The header goes to the MCP server only, never to the model provider.
      expect(JSON.stringify(mock.requests)).not.toContain('mcp-e2e-secret');

      // The server's prompts are in the / menu; sending one sends its text, fetched from the server.
      mock.setScript([textTurn('Reviewed.')]);
      await page.getByTestId('prompt-input').fill('/mcp:');
      await expect(page.locator('[data-testid="slash-item"][data-name="mcp:mock:review"]')).toBeVisible();
      await ask(page, '/mcp:mock:review file=src/a.ts');
      await expect(page.getByTestId('message').filter({ hasText: 'Reviewed.' })).toBeVisible({ timeout: 20_000 });
      expect(JSON.stringify(mock.requests[2].body)).toContain('Please review src/a.ts.');
    });

    test('a server without CORS gives the plain message', async ({ page, mock }) => {
      // The page is cross-origin isolated, so it cannot tell a server without CORS from one that is down: the message
      // names both, the CORS requirement in the plain words.
      mcp = await startMockMcp({ cors: false });
      await openAndConfigure(page, mock);
      await addServer(page, 'nocors', mcp.url);
      const server = page.locator('[data-testid="mcp-server"][data-name="nocors"]');
      await expect(server).toHaveAttribute('data-state', 'failed', { timeout: 20_000 });
      await expect(server.getByTestId('mcp-error')).toContainText('does not allow browser clients');
      await expect(page.getByTestId('mcp-review')).toBeHidden();
      await snapshot(page, `mcp-no-cors-${size.width}`);
    });

    test('a server that needs sign-in offers Sign in, and Remove forgets it', async ({ page, mock }) => {
      mcp = await startMockMcp({ status: 401 });
      await openAndConfigure(page, mock);
      await addServer(page, 'private', mcp.url);
      const server = page.locator('[data-testid="mcp-server"][data-name="private"]');
      await expect(server).toHaveAttribute('data-state', 'needs-auth', { timeout: 20_000 });
      await expect(server.getByTestId('mcp-signin')).toBeVisible();
      await server.getByTestId('mcp-remove').click();
      await expect(server).toHaveCount(0);
      await closeSettings(page);
      await page.reload();
      await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
      await page.getByTestId('settings-open').click();
      await expect(page.getByTestId('mcp-settings')).toBeVisible();
      await expect(page.getByTestId('mcp-server')).toHaveCount(0);
    });

    test('a server killed mid-session gives an error result, and the run goes on', async ({ page, mock }) => {
      mcp = await startMockMcp();
      await openAndConfigure(page, mock);
      await addServer(page, 'mock', mcp.url);
      await page.getByTestId('mcp-review-accept').click();
      await closeSettings(page);
      await mcp.kill();

      mock.setScript([callTurn('mcp__mock__lookup', { query: 'gone' }), textTurn('The server is down; I carried on without it.')]);
      await ask(page, 'Look up gone');
      await page.getByTestId('approval-allow').click({ timeout: 20_000 });
      const card = page.locator('[data-testid="tool-call"][data-tool="mcp__mock__lookup"]');
      await expect(card).toHaveAttribute('data-status', 'error', { timeout: 30_000 });
      await expect(page.getByTestId('message').filter({ hasText: 'I carried on without it.' })).toBeVisible({ timeout: 20_000 });
      expect(mock.requests).toHaveLength(2);
      await snapshot(page, `mcp-killed-${size.width}`);
    });
  });
}
