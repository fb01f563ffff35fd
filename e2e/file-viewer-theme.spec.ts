// Regression: a file opened in the light theme must follow a switch to the dark theme, line-number gutter included
// (it stayed white because the viewer's theme effect stopped tracking the theme after its first run).
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

test('an open file follows the theme switch, gutter included', async ({ page, mock }) => {
  mock.setScript([callTurn('write', { path: 'notes.txt', content: 'one\ntwo\n' }), textTurn('Written.')]);
  await openAndConfigure(page, mock, { theme: 'light' });
  await ask(page, 'Write notes.txt');
  await expect(page.getByTestId('file-tree')).toContainText('notes.txt');
  await page.getByTestId('file-tree').getByText('notes.txt').click();
  const gutter = page.getByTestId('file-viewer').locator('.cm-gutters');
  await expect(gutter).toBeVisible();
  const background = () => gutter.evaluate((el) => getComputedStyle(el).backgroundColor);
  const light = await background();

  await page.getByTestId('settings-open').click();
  await page.getByTestId('theme-select').selectOption('dark');
  await page.getByTestId('settings-save').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(background).not.toBe(light);
  const [r, g, b] = (await background()).match(/\d+/g)!.map(Number);
  expect(r + g + b).toBeLessThan(3 * 100);
  await snapshot(page, 'file-viewer-dark');
});
