import { expect, openAndConfigure, snapshot, test } from './fixtures';
test('scratch', async ({ page, mock }) => {
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.screenshot({ path: '/tmp/fh/welcome.png' });
  await page.getByTestId('settings-open').click();
  await page.getByTestId('base-url').fill(mock.url);
  await page.getByTestId('api-key').fill('sk-test');
  await expect(page.getByTestId('model-list-status')).toHaveAttribute('data-state', 'ready');
  await page.screenshot({ path: '/tmp/fh/settings.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/fh/settings-phone.png' });
  await page.getByTestId('settings-save').click();
  await page.screenshot({ path: '/tmp/fh/phone.png' });
});
