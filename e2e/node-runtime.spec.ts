// `node` in the embedded runtime, in the built app (issue 15): a real npm package with no dependencies (ms 2.1.3,
// as published, checked in as e2e/fixtures/ms-2.1.3.zip) is imported; the agent requires it with `node -e`, writes a
// node:test file and runs it with `node --test`, edits the package, and the changed behaviour shows in both; a runaway
// loop is stopped by the command's timeout and node keeps working; `git diff` shows exactly the agent's edit against the
// imported baseline (the first commit).
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const PACKAGE_ZIP = readFileSync(new URL('./fixtures/ms-2.1.3.zip', import.meta.url));

const TEST_FILE = `const test = require('node:test');
const assert = require('node:assert/strict');
const ms = require('..');

test('parses durations', () => {
  assert.equal(ms('2h'), 7200000);
  assert.equal(ms('1.5 days'), 129600000);
});

test('formats milliseconds', () => {
  assert.equal(ms(1000), '1s');
  assert.equal(ms(60000, { long: true }), '1 minute');
});
`;

const bashCards = (page: Page) => page.locator('[data-testid="tool-call"][data-tool="bash"]');

test('node runs an imported npm package, its node:test tests, and sees an edit', async ({ page, mock }) => {
  test.setTimeout(120_000);
  await openAndConfigure(page, mock);
  await page.getByTestId('import-zip').setInputFiles({ name: 'ms-2.1.3.zip', mimeType: 'application/zip', buffer: PACKAGE_ZIP });
  await expect(page.getByTestId('import-result')).toContainText('4 files');
  await expect(page.getByTestId('file-tree')).toContainText('index.js');

  mock.setScript([
    callTurn('bash', { command: `node -e "const ms = require('./'); console.log(ms('2h'), ms(90000), typeof indexedDB)"` }),
    callTurn('write', { path: 'test/ms.test.js', content: TEST_FILE }),
    callTurn('bash', { command: 'node --test' }),
    callTurn('edit', { path: 'index.js', edits: [{ oldText: "return Math.round(ms / s) + 's';", newText: "return Math.round(ms / s) + ' sec';" }] }),
    callTurn('bash', { command: `node -p "require('./')(1000)"; node --test; echo "exit $?"` }),
    callTurn('bash', { command: 'git diff; git status --short; git log --oneline' }),
    callTurn('bash', { command: `node -e "while (true) {}"`, timeout: 1 }),
    callTurn('bash', { command: `node -p "require('./')(2000)"` }),
    textTurn('The package now prints seconds as "sec", and its test caught the change.'),
  ]);
  await ask(page, 'Try the ms package with node, test it, then make seconds read "sec"');

  const cards = bashCards(page);
  await expect(cards).toHaveCount(6, { timeout: 60_000 });
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'done');
  await expect(cards.nth(0)).toContainText('7200000 2m undefined');

  await expect(cards.nth(1)).toHaveAttribute('data-status', 'done');
  await expect(cards.nth(1)).toContainText('# tests 2');
  await expect(cards.nth(1)).toContainText('# pass 2');
  await expect(cards.nth(1)).toContainText('# fail 0');

  await expect(cards.nth(2)).toHaveAttribute('data-status', /done|error/, { timeout: 30_000 });
  await expect(cards.nth(2)).toContainText('1 sec');
  await expect(cards.nth(2)).toContainText('# pass 1');
  await expect(cards.nth(2)).toContainText('# fail 1');
  await expect(cards.nth(2)).toContainText('exit 1');

  // git: the imported package is the first commit, so the diff is exactly the edit, and the new test is untracked.
  const git = cards.nth(3);
  await expect(git).toHaveAttribute('data-status', 'done');
  await expect(git).toContainText("-    return Math.round(ms / s) + 's';");
  await expect(git).toContainText("+    return Math.round(ms / s) + ' sec';");
  await expect(git).toContainText('?? test/');
  await expect(git).toContainText('Imported ms-2.1.3.zip');

  // A runaway loop in the page's engine stops at the timeout, and node works again after it.
  await expect(cards.nth(4)).toContainText('timed out');
  await expect(cards.nth(5)).toContainText('2 sec');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('its test caught the change');

  // The test file the agent wrote is in the workspace, and the engine's output reached the model.
  await expect(page.getByTestId('file-tree')).toContainText('test');
  expect(JSON.stringify(mock.requests[1].body)).toContain('7200000 2m undefined');
  await snapshot(page, 'node-runtime-done');
});
