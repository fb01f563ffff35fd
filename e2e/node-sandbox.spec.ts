// node's browser engine in this Chromium: the boot probe chooses it and the runtime details say why; programs run
// in a worker of the opaque-origin sandbox frame, and from there reach none of the page's storage, DOM or origin,
// no network (a loopback listener hears nothing), cannot escape the frame's CSP, cannot hang the page, and cannot
// break the host with malformed bridge messages.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';

/** A screen row whose whole text matches `pattern` (xterm renders one element per row). */
const row = (shell: Locator, pattern: RegExp) => shell.locator('.xterm-rows > div').filter({ hasText: pattern });

async function openTerminal(page: Page): Promise<Locator> {
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 15_000 });
  await shell.click();
  return shell;
}

/** Runs `command` in the terminal and waits for `marker` on a row of its own. */
async function run(page: Page, shell: Locator, command: string, marker: string, timeout = 30_000): Promise<void> {
  await page.keyboard.type(`${command}; echo ${marker}`);
  await page.keyboard.press('Enter');
  await expect(row(shell, new RegExp(`^\\s*${marker}\\s*$`))).toHaveCount(1, { timeout });
}

test('the boot probe picks the browser engine, the runtime details say why, and node runs on it', async ({ page }) => {
  await page.goto('/');
  const shell = await openTerminal(page);
  await page.getByTestId('runtime-status').getByRole('button').first().click();
  const engine = page.getByTestId('node-engine');
  await expect(engine).toHaveAttribute('data-engine', 'browser');
  await expect(engine).toContainText("runs on the browser's own engine");
  await expect(engine).toContainText('opaque origin');
  await page.keyboard.press('Escape');
  await shell.click();
  await run(page, shell, `node -p "typeof WebAssembly + ' ' + process.version"; node --engine=quickjs -p "typeof WebAssembly"`, 'ENGINES-DONE');
  await expect(row(shell, /^\s*object v20\.19\.0\s*$/)).toHaveCount(1);
  await expect(row(shell, /^\s*undefined\s*$/)).toHaveCount(1);
});
