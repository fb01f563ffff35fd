// WebContainer cannot boot here (stackblitz.com is unreachable and boot() never settles): the page must serve with
// the embedded runtime at once, say why once the boot times out, offer to try again, and the agent must work.
import { ask, callTurn, expect, openAndConfigure, test, textTurn } from './fixtures';

test('falls back to the embedded runtime when WebContainer cannot boot, says so, and the agent works', async ({ page, mock }) => {
  test.setTimeout(90_000);
  const started = Date.now();
  await openAndConfigure(page, mock);
  const status = page.getByTestId('runtime-status');
  await expect(status).toHaveAttribute('data-kind', 'embedded');
  expect(Date.now() - started).toBeLessThan(15_000); // nobody waits out the WebContainer timeout

  mock.setScript([callTurn('bash', { command: 'echo "answer: $((6 * 7))"' }), textTurn('It printed 42.')]);
  await ask(page, 'Compute 6 times 7 in the shell');
  const card = page.locator('[data-testid="tool-call"][data-tool="bash"]');
  await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(card).toContainText('answer: 42');

  // After the default 20 s boot timeout the status says why WebContainer is not in use, and offers a retry.
  await expect(status).toContainText('did not start within 20 s', { timeout: 40_000 });
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(status).toHaveAttribute('data-kind', 'embedded');
  await expect(page.getByRole('button', { name: /Try WebContainer again/ })).toBeVisible();
});
