// npm in the embedded runtime, in the built app (issue 16): a real npm package with dependencies (shell-quote 1.6.1,
// as published, checked in as e2e/fixtures/shell-quote-1.6.1.zip) is imported, and the agent installs its
// dependencies from a local registry serving their real tarballs, runs its tape tests with `npm test`, breaks the
// code, and sees `npm test` fail with exit code 1.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { startFixtureRegistry, type FixtureRegistry } from '../src/runtime/embedded/npm/testing/fixture-registry';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const PACKAGE_ZIP = readFileSync(new URL('./fixtures/shell-quote-1.6.1.zip', import.meta.url));
const bashCards = (page: Page) => page.locator('[data-testid="tool-call"][data-tool="bash"]');

let registry: FixtureRegistry | undefined;
test.afterEach(async () => {
  await registry?.close();
  registry = undefined;
});

test('the agent installs a package\'s dependencies, runs its tests, breaks the code and sees them fail', async ({ page, mock }) => {
  test.setTimeout(120_000);
  registry = await startFixtureRegistry();
  await openAndConfigure(page, mock, { npmRegistry: registry.url });
  await page.getByTestId('import-zip').setInputFiles({ name: 'shell-quote-1.6.1.zip', mimeType: 'application/zip', buffer: PACKAGE_ZIP });
  await expect(page.getByTestId('import-result')).toContainText('16 files');

  mock.setScript([
    callTurn('bash', { command: 'npm install' }),
    callTurn('bash', { command: 'npm test' }),
    callTurn('edit', { path: 'index.js', edits: [{ oldText: "    }).join(' ');", newText: "    }).join(',');" }] }),
    callTurn('bash', { command: 'npm test; echo "exit $?"' }),
    textTurn('The tests caught the broken quoting.'),
  ]);
  await ask(page, 'Install the dependencies, run the tests, then join quoted words with commas');

  const cards = bashCards(page);
  await expect(cards).toHaveCount(3, { timeout: 90_000 });
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'done');
  await expect(cards.nth(0)).toContainText('npm: fetched 10 tarballs');
  await expect(cards.nth(0)).toContainText('added 10 packages');

  await expect(cards.nth(1)).toHaveAttribute('data-status', 'done');
  await expect(cards.nth(1)).toContainText('# pass  95');

  await expect(cards.nth(2)).toHaveAttribute('data-status', /done|error/, { timeout: 30_000 });
  await expect(cards.nth(2)).toContainText('not ok');
  await expect(cards.nth(2)).toContainText('npm error script "test" failed: `tape test/*.js` exited with code 1');
  await expect(cards.nth(2)).toContainText('exit 1');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('caught the broken quoting');

  // The tarballs came from the registry set in settings; the lockfile is in the workspace.
  expect(registry.requests).toContain('/tape/-/tape-2.3.3.tgz');
  await expect(page.getByTestId('file-tree')).toContainText('package-lock.json');
  await snapshot(page, 'npm-test-failed');
});
