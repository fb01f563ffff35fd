// git in the embedded runtime: an imported repo is the first commit, so the agent's `git diff` after an edit shows
// exactly that edit (what the Changes tab shows), and `git log` starts with the import.
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const ORIGINAL: Record<string, string> = {
  'app.js': 'function greet(name) {\n  return "Hello, " + name;\n}\n\nmodule.exports = { greet };\n',
  'README.md': '# Greeter\n\nSays hello.\n',
  'lib/util.js': 'exports.noop = () => {};\n',
};

/** A GitHub-style download (one top folder, no .git). */
function repoZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(ORIGINAL)) entries[`greeter-main/${path}`] = new TextEncoder().encode(text);
  return Buffer.from(zipSync(entries));
}

/** The removed and added lines of a unified diff (not its ---/+++ headers). */
const changedLines = (text: string) => text.split('\n').filter((line) => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line));

const bashCards = (page: Page) => page.locator('[data-testid="tool-call"][data-tool="bash"]');

test('the agent edits an imported repo and its git diff shows exactly that edit; git log starts with the import', async ({ page, mock }) => {
  await openAndConfigure(page, mock);
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-kind', 'embedded');
  await page.getByTestId('import-zip').setInputFiles({ name: 'greeter-main.zip', mimeType: 'application/zip', buffer: repoZip() });
  await expect(page.getByTestId('import-result')).toContainText('3 files');

  mock.setScript([
    callTurn('edit', { path: 'app.js', edits: [{ oldText: '"Hello, "', newText: '"Hi, "' }] }),
    callTurn('bash', { command: 'git diff' }),
    callTurn('bash', { command: 'git log --oneline' }),
    textTurn('Changed the greeting; the diff is above.'),
  ]);
  await ask(page, 'Make the greeting friendlier and show me the diff');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Changed the greeting', { timeout: 30_000 });

  const [diffCard, logCard] = [bashCards(page).nth(0), bashCards(page).nth(1)];
  await expect(diffCard).toHaveAttribute('data-status', 'done');
  await expect(diffCard).toContainText('diff --git a/app.js b/app.js');
  const diffText = await diffCard.innerText();
  expect(diffText).not.toContain('README.md');
  expect(changedLines(diffText)).toEqual(['-  return "Hello, " + name;', '+  return "Hi, " + name;']);
  await expect(logCard).toHaveAttribute('data-status', 'done');
  await expect(logCard).toContainText(/[0-9a-f]{7} Imported greeter-main\.zip/);

  // The model got the same diff as the tool result.
  const diffResult = JSON.stringify(mock.requests.at(-2)?.body);
  expect(diffResult).toContain('+  return \\"Hi, \\" + name;');

  // The Changes tab lists that one file, and no .git.
  await page.getByTestId('tab-changes').click();
  await expect(page.getByTestId('change-file')).toHaveCount(1);
  await expect(page.getByTestId('change-file')).toHaveAttribute('data-path', 'app.js');
  await snapshot(page, 'git-01-diff-and-changes');
});
