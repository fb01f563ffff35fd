// The first hour at desktop size (1280×800), as one person's session: approvals (the wait is named and the question
// takes the focus; the mode changes from the top bar in one click), every tool card state with one line-count rule
// and aligned labels, the fixed-height top bar with the runtime popover, the sidebar's import/export grid with
// "Import .zip" a real button, toasts that leave (errors stay), the user bubble's actions without a height jump, the
// Terminal's agent view rebuilt after a reload and its welcome wrapped at word boundaries, and the Changes tab's
// long lines and summary. axe checks the conversation with every card state, Files, Terminal and Changes.
import type { Locator, Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { expectAccessible } from './accessibility';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

test.use({ viewport: { width: 1280, height: 800 } });

const card = (page: Page, tool: string, nth = 0) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).nth(nth);
const box = async (locator: Locator) => (await locator.boundingBox())!;
const LONG_LINE = `const table = [${Array.from({ length: 60 }, (_, i) => `'entry-${i}'`).join(', ')}];`;

test('approvals, tool cards, top bar, sidebar, toasts, bubbles, terminal and changes', async ({ page, mock }) => {
  test.setTimeout(120_000);
  await openAndConfigure(page, mock, { approvalMode: 'ask' });
  const topbar = page.locator('header.topbar');
  expect((await box(topbar)).height).toBe(46);
  await expect(page.getByTestId('topbar-approval-mode-ask')).toHaveAttribute('aria-checked', 'true');
  // The model name is whole while there is room.
  expect(await page.getByTestId('model-label').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // The runtime: a dot and a short label; the explanation in a popover.
  await page.getByTestId('runtime-status').getByRole('button').click();
  await expect(page.getByTestId('runtime-details')).toBeVisible();
  await expect(page.getByTestId('runtime-details')).toContainText('Embedded shell');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('runtime-details')).toBeHidden();

  mock.setScript([
    callTurn('write', { path: 'notes.txt', content: 'hello\n' }),
    callTurn('bash', { command: 'echo failing >&2; exit 3' }),
    callTurn('write', { path: '.env', content: 'SECRET=1\n' }),
    callTurn('write', { path: 'wide.ts', content: `${LONG_LINE}\nexport default table;\n` }),
    callTurn('bash', { command: 'echo waiting; sleep 30' }),
    textTurn('Stopped.'),
  ]);
  await ask(page, 'Write notes, try a command, touch .env, write a wide file, then wait');

  // Waiting for approval: named as such, the question has the focus.
  await expect(page.getByTestId('approval-card')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('run-state')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('run-state')).toHaveText('Waiting for your approval');
  await expect(page.getByTestId('approval-card')).toBeFocused();
  const bubble = page.locator('[data-testid="message"][data-role="user"] .bubble');
  const bubbleHeightWhileRunning = (await box(bubble)).height;
  await snapshot(page, 'fh-10-waiting-for-approval');
  await page.getByTestId('approval-allow').click();

  // One line-count rule, singular and plural: header and result agree.
  const notes = card(page, 'write');
  await expect(notes).toHaveAttribute('data-status', 'done');
  await expect(notes.locator('header')).toContainText('6 B, 1 line');
  await expect(notes).toContainText('wrote 6 bytes, 1 line.');

  await expect(card(page, 'bash').getByTestId('approval-allow')).toBeVisible();
  await page.getByTestId('approval-allow').click();
  await expect(card(page, 'bash')).toHaveAttribute('data-status', 'error');
  // The mode changes from the top bar in one click; the settings dialog's own radios stay unique.
  await page.getByTestId('topbar-approval-mode-auto').click();
  await expect(page.getByTestId('topbar-approval-mode-auto')).toHaveAttribute('aria-checked', 'true');

  // A protected path asks in every mode; denied, it is blocked.
  const env = card(page, 'write', 1);
  await expect(env.getByTestId('approval-deny')).toBeVisible();
  await env.getByTestId('approval-deny').click();
  await expect(env).toHaveAttribute('data-status', 'blocked');
  await expect(card(page, 'write', 2)).toHaveAttribute('data-status', 'done');
  await expect(card(page, 'write', 2).locator('header')).toContainText('2 lines');
  const running = card(page, 'bash', 1);
  await expect(running).toHaveAttribute('data-status', 'running');

  // Every status label in the same column, the same size; no header taller than another.
  const labels = page.locator('[data-testid="tool-call"] header .status');
  const boxes = await Promise.all((await labels.all()).map(box));
  expect(boxes.length).toBe(5);
  for (const b of boxes) {
    expect(Math.abs(b.x + b.width - (boxes[0].x + boxes[0].width))).toBeLessThan(1);
    expect(b.height).toBe(boxes[0].height);
  }
  const headers = await Promise.all((await page.locator('[data-testid="tool-call"] > header').all()).map(box));
  expect(new Set(headers.map((h) => h.height)).size).toBe(1);
  await snapshot(page, 'fh-11-tool-cards');
  await expectAccessible(page, 'conversation-with-every-card-state');

  await page.getByTestId('stop').click();
  await expect(running).toHaveAttribute('data-status', 'error');
  await expect(page.getByTestId('send')).toHaveText('Send');
  // The bubble's actions never change its height; with a mouse they show on hover.
  expect((await box(bubble)).height).toBe(bubbleHeightWhileRunning);
  const actions = page.getByTestId('message-actions').first();
  await page.getByTestId('prompt-input').hover();
  await expect(actions).toHaveCSS('opacity', '0');
  await page.locator('[data-testid="message"][data-role="user"]').hover();
  await expect(actions).toHaveCSS('opacity', '1');
  await expect(actions.getByTestId('fork-message')).toBeEnabled();

  await page.getByTestId('settings-open').click();
  await expect(page.getByTestId('approval-mode-auto')).toBeChecked();
  await expect(page.locator('[data-testid^="approval-mode-"]')).toHaveCount(4);
  await expect(page.locator('[data-testid^="topbar-approval-mode-"]')).toHaveCount(4);
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Changes: the long line scrolls sideways; the summary wraps between its parts only.
  await page.getByTestId('tab-changes').click();
  const wide = page.locator('[data-testid="change-file"][data-path="wide.ts"]');
  await wide.getByRole('button', { name: /wide\.ts/ }).click();
  const diff = wide.locator('.diff');
  expect(await diff.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
  const longLine = wide.locator('.line.add').first();
  expect((await box(longLine)).width).toBeGreaterThan((await box(diff)).width);
  for (const part of await page.getByTestId('changes-summary').locator('> *').all()) expect((await box(part)).height).toBeLessThan(22);
  await expect(page.getByTestId('changes-summary')).toContainText('2 files changed');
  await snapshot(page, 'fh-12-changes');
  await expectAccessible(page, 'changes');

  await page.getByTestId('tab-files').click();
  await expect(page.getByTestId('file-tree')).toContainText('wide.ts');
  await expectAccessible(page, 'files');

  // The sidebar: two rows of three equal buttons, "Import .zip" a real button that opens the chooser.
  const grid = page.locator('.transfer .grid button');
  const cells = await Promise.all((await grid.all()).map(box));
  expect(cells).toHaveLength(6);
  expect(new Set(cells.map((c) => Math.round(c.width))).size).toBe(1);
  expect(new Set(cells.map((c) => Math.round(c.y))).size).toBe(2);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import .zip' }).click();
  await (await chooser).setFiles({ name: 'tiny.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ 'tiny/a.txt': new TextEncoder().encode('a\n') })) });
  // Toasts: an outcome leaves by itself; an error stays until dismissed.
  const done = page.getByTestId('import-result');
  await expect(done).toContainText('Imported tiny.zip: 1 file (top folder tiny/ removed)');
  await page.getByTestId('import-session').setInputFiles({ name: 'broken.conch.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  const error = page.getByTestId('import-session-error');
  await expect(error).toBeVisible();
  await snapshot(page, 'fh-13-toasts');
  await expect(done).toBeHidden({ timeout: 15_000 });
  await expect(error).toBeVisible();
  await error.getByRole('button', { name: 'Dismiss' }).click();
  await expect(error).toBeHidden();

  // After a reload the Terminal's agent view tells the commands again; the welcome wraps between words.
  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByTestId('tab-terminal').click();
  const shellRows = page.getByTestId('terminal-shell').locator('.xterm-rows > div');
  await expect(shellRows.first()).toContainText('Embedded shell', { timeout: 15_000 });
  const welcome = (await shellRows.allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' ').trimEnd()).filter((r) => r && !r.includes('$'));
  const words = 'Embedded shell (just-bash) in /home/project. The agent runs its commands in this same sandbox.'.split(' ');
  for (const word of words) expect(welcome.some((row) => row.split(' ').includes(word)), `"${word}" whole on one row`).toBe(true);
  await page.getByTestId('terminal-view-agent').click();
  const agentRows = page.getByTestId('terminal-agent').locator('.xterm-rows');
  await expect(agentRows).toContainText('$ echo failing >&2; exit 3');
  await expect(agentRows).toContainText('$ echo waiting; sleep 30');
  await snapshot(page, 'fh-14-terminal-agent-after-reload');
  await expectAccessible(page, 'terminal');
});
