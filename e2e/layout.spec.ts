// The page at phone width: the conversation and the workspace become tabs, sessions a drawer; every control reachable.
import { ask, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

test('phone portrait: chat and workspace are tabs, sessions a drawer', async ({ page, mock }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  mock.setScript([textTurn('Hello from a small screen.')]);
  await openAndConfigure(page, mock);
  await ask(page, 'hi');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Hello from a small screen.');
  await expect(page.getByTestId('file-tree')).toBeHidden();
  await snapshot(page, '20-phone-chat');
  await page.getByTestId('view-workspace').click();
  await expect(page.getByTestId('file-tree')).toBeVisible();
  await expect(page.getByTestId('prompt-input')).toBeHidden();
  await page.getByRole('button', { name: 'Show sessions' }).click();
  await expect(page.getByTestId('session-item')).toBeVisible();
  await snapshot(page, '21-phone-drawer');
});

test('the system theme follows the operating system, dark and back to light', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 22, 21)');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(html).toHaveAttribute('data-theme', 'light');
});
