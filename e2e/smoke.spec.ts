import { expect, test } from '@playwright/test';

test('the built app boots the embedded runtime in a cross-origin isolated page', async ({ page }) => {
  await page.goto('/');
  const status = page.getByTestId('runtime-status');
  await expect(status).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(status).toHaveAttribute('data-kind', 'embedded');
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
});
