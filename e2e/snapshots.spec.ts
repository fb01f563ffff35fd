// Snapshots that cost what changed (issue 11), on a real-sized repo (bench/lib/big-repo.ts: 20,000 files, ~48 MB):
// import it, let the agent edit a file and run a read-only command in each of five turns, and watch the browser's
// storage grow by less than 1 MB in all; restore an early checkpoint and see exactly its changes, with the imported
// node_modules (which snapshots leave out) still there; reload and find the latest state.
import type { Page } from '@playwright/test';
import { generateBigRepo, repoZip } from '../bench/lib/big-repo';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const repo = generateBigRepo();
const sources = repo.files.filter((f) => f.path.startsWith('packages/'));
const nodeModules = new Set(repo.files.filter((f) => f.path.startsWith('node_modules/')).map((f) => f.path.split('/')[1])).size;

/** An edit of `file`: a line that occurs once in it, with a comment appended. */
function editOf(file: (typeof sources)[number], turn: number) {
  const lines = new TextDecoder().decode(file.data).split('\n');
  const line = lines.find((l) => l.length > 20 && lines.indexOf(l) === lines.lastIndexOf(l));
  if (!line) throw new Error(`no unique line in ${file.path}`);
  return { path: file.path, oldText: line, newText: `${line} // turn ${turn}` };
}

const edited = [1, 2, 3, 4, 5].map((turn) => editOf(sources[turn * 3001], turn));

const usage = (page: Page) => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);

async function saved(page: Page): Promise<void> {
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 60_000 });
}

async function changedFiles(page: Page): Promise<string[]> {
  await page.getByTestId('tab-changes').click();
  await page.getByTestId('changes-refresh').click();
  await expect(page.getByTestId('changes')).toHaveAttribute('aria-busy', 'false', { timeout: 30_000 });
  return page.getByTestId('change-file').evaluateAll((items) => items.map((i) => `${i.getAttribute('data-status')} ${i.getAttribute('data-path')}`));
}

test('a 20,000-file repo: five turns grow storage by under 1 MB; a restore writes only the difference and keeps node_modules; a reload finds the latest state', async ({ page, mock }) => {
  test.setTimeout(300_000);
  await openAndConfigure(page, mock);
  await page.getByTestId('import-zip').setInputFiles({ name: 'big-repo-main.zip', mimeType: 'application/zip', buffer: Buffer.from(repoZip(repo)) });
  await expect(page.getByTestId('import-result')).toContainText('20,044 files', { timeout: 180_000 });
  await saved(page);
  const before = await usage(page);

  for (const [i, edit] of edited.entries()) {
    const turn = i + 1;
    mock.setScript([
      callTurn('edit', { path: edit.path, edits: [{ oldText: edit.oldText, newText: edit.newText }] }),
      callTurn('bash', { command: `grep -c export ${edit.path}` }),
      textTurn(`Turn ${turn} done.`),
    ]);
    await ask(page, `Turn ${turn}: edit one file and count its exports`);
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(`Turn ${turn} done.`, { timeout: 30_000 });
    await saved(page);
  }
  const grown = (await usage(page)) - before;
  test.info().annotations.push({ type: 'storage growth over 5 turns', description: `${grown} bytes` });
  expect(grown).toBeLessThan(1024 ** 2);
  expect(await changedFiles(page)).toEqual(edited.map((e) => `modified ${e.path}`).sort());
  await snapshot(page, 'snapshots-01-five-turns');

  // Restore the checkpoint of the second prompt: the workspace as it was after the first turn's edit.
  await page.locator('[data-testid="message"][data-role="user"]').nth(1).hover();
  await page.getByTestId('restore-checkpoint').nth(1).click();
  await expect(page.getByTestId('restore-done')).toBeVisible({ timeout: 30_000 });
  expect(await changedFiles(page)).toEqual([`modified ${edited[0].path}`]);
  await saved(page);

  // node_modules came with the import and is left out of snapshots: the restore kept it.
  mock.setScript([callTurn('bash', { command: 'ls node_modules | wc -l' }), textTurn('Counted the dependencies.')]);
  await ask(page, 'How many dependencies are installed?');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Counted the dependencies.', { timeout: 30_000 });
  expect(JSON.stringify(mock.requests.at(-1)?.body)).toContain(`${nodeModules}\\n`);
  await saved(page);
  await snapshot(page, 'snapshots-02-restored');

  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(6, { timeout: 60_000 });
  expect(await changedFiles(page)).toEqual([`modified ${edited[0].path}`]);
  await snapshot(page, 'snapshots-03-after-reload');
});
