// The page without a network, and on a static host that sends no COOP/COEP headers (issue 16): the service worker
// precaches the build, so after one visit the app loads and its embedded runtime runs with the host gone; and it
// adds the isolation headers itself, so a plain host still gets a cross-origin isolated page after one reload.
// Each test serves dist/ from its own static server (Playwright's setOffline does not cover a service worker's
// fetches, so the host is stopped instead).
import type { Locator, Page } from '@playwright/test';
import { ask, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';
import { startStaticHost, type StaticHost } from './static-host';

let host: StaticHost | undefined;
test.afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Runs `command` in the Terminal tab and waits for a screen row matching `expected`. */
async function inTerminal(page: Page, command: string, expected: RegExp): Promise<Locator> {
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 30_000 });
  await shell.click();
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
  const row = shell.locator('.xterm-rows > div').filter({ hasText: expected });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  return row;
}

/** True once a service worker controls the page (it activates only after precaching the whole build). */
async function controlled(page: Page): Promise<boolean> {
  try {
    return await page.evaluate(() => navigator.serviceWorker.controller !== null);
  } catch {
    return false; // the page is navigating
  }
}

test.describe('with service workers', () => {
  test.use({ serviceWorkers: 'allow' });

  test('after one visit the app loads and node runs with the host stopped; the model call says "you are offline"', async ({ page, context, mock }) => {
    test.setTimeout(120_000);
    host = await startStaticHost({ isolationHeaders: true });
    await openAndConfigure(page, mock, { url: host.url });
    await expect.poll(() => controlled(page), { timeout: 60_000 }).toBe(true);

    await host.close();
    await page.reload();
    await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    await inTerminal(page, 'node -e "console.log(6*7)"', /^\s*42\s*$/);

    // A remote model cannot be reached with the network off (the mock is on this machine, which still works).
    await context.setOffline(true);
    mock.setScript([textTurn('never sent')]);
    await page.getByTestId('settings-open').click();
    await page.getByTestId('base-url').fill('https://llm.example.com/v1');
    await page.getByTestId('settings-save').click();
    await ask(page, 'hello');
    await expect(page.getByTestId('provider-error')).toContainText('You are offline', { timeout: 30_000 });
    await snapshot(page, 'offline-provider-error');
  });

  test('a host without COOP/COEP headers: one reload, then the page is cross-origin isolated and node runs', async ({ page }) => {
    test.setTimeout(120_000);
    host = await startStaticHost({ isolationHeaders: false });
    let loads = 0;
    page.on('framenavigated', (frame) => void (frame === page.mainFrame() && loads++));
    await page.goto(host.url);
    await expect.poll(() => page.evaluate(() => crossOriginIsolated).catch(() => false), { timeout: 60_000 }).toBe(true);
    await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await inTerminal(page, 'node -e "console.log(typeof SharedArrayBuffer, 6*7)"', /^\s*function 42\s*$/);
    expect(loads).toBe(2);
  });
});

test('a host without COOP/COEP headers and no service workers: the page works as it is and never reloads', async ({ page }) => {
  host = await startStaticHost({ isolationHeaders: false });
  let loads = 0;
  page.on('framenavigated', (frame) => void (frame === page.mainFrame() && loads++));
  await page.goto(host.url);
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await inTerminal(page, 'echo still-here', /^\s*still-here\s*$/);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  expect(loads).toBe(1);
});
