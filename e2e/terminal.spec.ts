import { expect, test, type Locator, type Page } from '@playwright/test';

// The person's own shell in the Terminal tab, over the embedded runtime (WebContainers cannot boot offline).

async function openTerminal(page: Page): Promise<Locator> {
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  // The first prompt means xterm.js loaded and the shell asked the runtime for its directory.
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 15_000 });
  await shell.click();
  return shell;
}

/** A screen row whose whole text matches `pattern` (xterm renders one element per row). */
function row(shell: Locator, pattern: RegExp): Locator {
  return shell.locator('.xterm-rows > div').filter({ hasText: pattern });
}

test('the terminal runs a command in the embedded runtime and shows its output', async ({ page }) => {
  const shell = await openTerminal(page);
  await page.keyboard.type('echo hello-from-terminal');
  await page.keyboard.press('Enter');
  await expect(row(shell, /^\s*hello-from-terminal\s*$/)).toHaveCount(1);
});

test('cd persists between commands and shows in the prompt', async ({ page }) => {
  const shell = await openTerminal(page);
  await page.keyboard.type('mkdir -p e2e-dir && cd e2e-dir');
  await page.keyboard.press('Enter');
  await expect(row(shell, /\/e2e-dir \$\s*$/)).toHaveCount(1);
  await page.keyboard.type('pwd');
  await page.keyboard.press('Enter');
  await expect(row(shell, /^\s*\/\S*\/e2e-dir\s*$/)).toHaveCount(1);
});

test('history, line editing and Ctrl+C work from the keyboard', async ({ page }) => {
  const shell = await openTerminal(page);
  await page.keyboard.type('echo first-line');
  await page.keyboard.press('Enter');
  await expect(row(shell, /^\s*first-line\s*$/)).toHaveCount(1);

  // Up recalls the line; Left moves into it; typing inserts there.
  await page.keyboard.press('ArrowUp');
  for (let i = 0; i < 'line'.length; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('edited-');
  await page.keyboard.press('Enter');
  await expect(row(shell, /^\s*first-edited-line\s*$/)).toHaveCount(1);

  // Ctrl+C abandons a half-typed line without running it.
  await page.keyboard.type('echo never-run');
  await page.keyboard.press('Control+C');
  await expect(row(shell, /echo never-run\^C\s*$/)).toHaveCount(1);
  await page.keyboard.type('echo after-interrupt');
  await page.keyboard.press('Enter');
  await expect(row(shell, /^\s*after-interrupt\s*$/)).toHaveCount(1);
  await expect(row(shell, /^\s*never-run\s*$/)).toHaveCount(0);
});
