// The first hour on a phone (390×844, touch): the top bar keeps one fixed-height row with the runtime dot, the
// approval mode and the model; the user bubble's actions sit behind an always-visible "…" menu; a toast stays inside
// the screen; settings, the conversation, the workspace and the drawer pass axe.
import { expectAccessible } from './accessibility';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

test('phone: fixed top bar, the "…" menu on bubbles, toasts inside the screen, accessible screens', async ({ page, mock }) => {
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('model-label')).toHaveText('Choose a model');
  await page.getByTestId('runtime-status').getByRole('button').tap();
  await expect(page.getByTestId('runtime-details')).toBeVisible();
  const details = (await page.getByTestId('runtime-details').boundingBox())!;
  expect(details.x + details.width).toBeLessThanOrEqual(390);
  await snapshot(page, 'fh-19-phone-runtime-popover');
  await page.keyboard.press('Escape');
  await openAndConfigure(page, mock);
  const topbar = page.locator('header.topbar');
  const bar = (await topbar.boundingBox())!;
  expect(bar.height).toBe(46);
  // Everything in the bar fits the screen on one row.
  for (const item of await topbar.locator('> *:visible').all()) {
    const b = (await item.boundingBox())!;
    expect(b.x + b.width, await item.evaluate((el) => el.outerHTML.slice(0, 80))).toBeLessThanOrEqual(390);
    expect(b.y).toBeGreaterThanOrEqual(bar.y);
    expect(b.y + b.height).toBeLessThanOrEqual(bar.y + bar.height);
  }
  await expect(page.getByTestId('model-label')).toHaveText('mock-model');
  // One tap changes the approval mode.
  await page.getByTestId('topbar-approval-mode-read-only').tap();
  await expect(page.getByTestId('topbar-approval-mode-read-only')).toHaveAttribute('aria-checked', 'true');
  await page.getByTestId('topbar-approval-mode-auto').tap();
  await expect(page.getByTestId('topbar-approval-mode-auto')).toHaveAttribute('aria-checked', 'true');

  mock.setScript([callTurn('bash', { command: 'echo hi from the phone' }), textTurn('Ran it.')]);
  await ask(page, 'say hi');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Ran it.');
  await expect(page.getByTestId('send')).toHaveText('Send');

  // The actions of a user message: an always-visible "…" button opening a menu.
  const more = page.getByRole('button', { name: 'Actions for this message' });
  await expect(more).toBeVisible();
  await expect(page.getByTestId('fork-message')).toBeHidden();
  await more.tap();
  await expect(page.getByTestId('message-actions')).toBeVisible();
  await expect(page.getByTestId('fork-message')).toBeVisible();
  await snapshot(page, 'fh-20-phone-message-menu');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('fork-message')).toBeHidden();
  await snapshot(page, 'fh-21-phone-chat');
  await expectAccessible(page, 'phone-chat');

  await page.getByTestId('settings-open').tap();
  await expect(page.getByTestId('settings-save')).toBeVisible();
  await snapshot(page, 'fh-22-phone-settings');
  await expectAccessible(page, 'phone-settings');
  await page.getByRole('button', { name: 'Cancel' }).tap();

  await page.getByTestId('view-workspace').tap();
  await page.getByTestId('tab-terminal').tap();
  await page.getByTestId('terminal-view-agent').tap();
  await expect(page.getByTestId('terminal-agent').locator('.xterm-rows')).toContainText('$ echo hi from the phone');
  await snapshot(page, 'fh-23-phone-terminal');

  // A toast on a phone sits inside the screen, under the top bar.
  await page.getByRole('button', { name: 'Show sessions' }).tap();
  await page.getByTestId('import-session').setInputFiles({ name: 'broken.conch.zip', mimeType: 'application/zip', buffer: Buffer.from('nope') });
  const toast = page.getByTestId('import-session-error');
  await expect(toast).toBeVisible();
  const t = (await toast.boundingBox())!;
  expect(t.x).toBeGreaterThanOrEqual(0);
  expect(t.x + t.width).toBeLessThanOrEqual(390);
  expect(t.y).toBeGreaterThanOrEqual(46);
  await snapshot(page, 'fh-24-phone-drawer-toast');
  await expectAccessible(page, 'phone-drawer');
});
