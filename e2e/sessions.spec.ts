// Sessions that are never lost (issue 6), driven as a person would: import a repo zip, let the agent edit two files,
// reload mid-turn, fork, export the session, import it in a fresh browser and continue, and apply the Changes
// tab's patch with the real `git apply` to the original files.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const ORIGINAL: Record<string, string> = {
  'app.js': 'function greet(name) {\n  return "Hello, " + name;\n}\n\nmodule.exports = { greet };\n',
  'README.md': '# Greeter\n\nSays hello.\n',
  'lib/util.js': 'exports.noop = () => {};\n',
};
const EDITED_APP = ORIGINAL['app.js'].replace('"Hello, "', '"Hi, "');
const EDITED_README = '# Greeter\n\nSays hi, politely.\n';
const API_KEY = 'sk-test-not-a-real-key';

/** A GitHub-style download: everything inside one top folder. */
function repoZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(ORIGINAL)) entries[`greeter-main/${path}`] = new TextEncoder().encode(text);
  return Buffer.from(zipSync(entries));
}

const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);

async function fileText(page: Page, path: string): Promise<string> {
  await page.getByTestId('tab-files').click();
  const viewer = page.getByTestId('file-viewer');
  if (await viewer.isVisible()) await page.getByRole('button', { name: 'Back to the file tree' }).click();
  await page.getByTestId('file-tree').getByText(path, { exact: true }).click();
  const content = page.getByTestId('file-viewer').locator('.cm-content');
  await expect(content).toBeVisible();
  const text = (await content.innerText()).replace(/\u00a0/g, ' ');
  await page.getByRole('button', { name: 'Back to the file tree' }).click();
  return text;
}

test('import, edit, reload mid-turn, fork, export, import elsewhere and continue, apply the patch', async ({ page, mock, browser, baseURL }) => {
  test.setTimeout(120_000);
  await openAndConfigure(page, mock);

  // Import the repo: the top folder is stripped and the files show in the tree.
  await page.getByTestId('import-zip').setInputFiles({ name: 'greeter-main.zip', mimeType: 'application/zip', buffer: repoZip() });
  await expect(page.getByTestId('import-result')).toContainText('3 files');
  await expect(page.getByTestId('file-tree')).toContainText('app.js');
  await expect(page.getByTestId('file-tree')).toContainText('README.md');

  // The agent edits two files, then starts a long command; the page is reloaded while it runs.
  mock.setScript([
    callTurn('edit', { path: 'app.js', edits: [{ oldText: '"Hello, "', newText: '"Hi, "' }] }),
    callTurn('write', { path: 'README.md', content: EDITED_README }),
    callTurn('bash', { command: 'echo building; sleep 30; echo built' }),
  ]);
  await ask(page, 'Make the greeting friendlier and update the README');
  await expect(card(page, 'edit')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(card(page, 'write')).toHaveAttribute('data-status', 'done');
  await expect(card(page, 'bash')).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await snapshot(page, 'sessions-01-before-reload');

  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  // The transcript is whole; the command cut off by the reload has an aborted result.
  await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText(/Make the greeting friendlier/);
  await expect(card(page, 'edit')).toHaveAttribute('data-status', 'done');
  await expect(card(page, 'write')).toHaveAttribute('data-status', 'done');
  await expect(card(page, 'bash')).toHaveAttribute('data-status', 'error');
  await expect(card(page, 'bash')).toContainText(/reloaded/);
  // The workspace came back with both edits.
  expect(await fileText(page, 'app.js')).toContain('"Hi, "');
  expect(await fileText(page, 'README.md')).toContain('Says hi, politely.');
  await page.getByTestId('tab-changes').click();
  await expect(page.locator('[data-testid="change-file"][data-path="app.js"]')).toHaveAttribute('data-status', 'modified');
  await expect(page.locator('[data-testid="change-file"][data-path="README.md"]')).toHaveAttribute('data-status', 'modified');
  await expect(page.getByTestId('change-file')).toHaveCount(2);
  await snapshot(page, 'sessions-02-after-reload');

  // Download the patch and apply it with git to the original files.
  const [patchDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-patch').click()]);
  const dir = mkdtempSync(join(tmpdir(), 'conch-patch-'));
  for (const [path, text] of Object.entries(ORIGINAL)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const patchPath = join(dir, 'changes.patch');
  await patchDownload.saveAs(patchPath);
  execFileSync('git', ['apply', '--verbose', patchPath], { cwd: dir });
  expect(readFileSync(join(dir, 'app.js'), 'utf8')).toBe(EDITED_APP);
  expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(EDITED_README);

  // Export the session: a .conch.zip with the transcript and workspace, and no API key anywhere.
  const [sessionDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-session').click()]);
  expect(sessionDownload.suggestedFilename()).toMatch(/^make-the-greeting-friendlier[a-z-]*-\d{4}-\d{2}-\d{2}\.conch\.zip$/);
  const sessionPath = join(dir, sessionDownload.suggestedFilename());
  await sessionDownload.saveAs(sessionPath);
  const exported = unzipSync(new Uint8Array(readFileSync(sessionPath)));
  expect(strFromU8(exported['workspace/app.js'])).toBe(EDITED_APP);
  expect(strFromU8(exported['baseline/app.js'])).toBe(ORIGINAL['app.js']);
  for (const data of Object.values(exported)) expect(strFromU8(data, true)).not.toContain(API_KEY);

  // Fork from the first message: a new session with nothing before it, the prompt back in the box, the workspace
  // as it was when that message was sent (the imported repo).
  await page.locator('[data-testid="message"][data-role="user"]').first().hover();
  await page.getByTestId('fork-message').first().click();
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await expect(page.getByTestId('message')).toHaveCount(0);
  await expect(page.getByTestId('prompt-input')).toHaveValue('Make the greeting friendlier and update the README');
  expect(await fileText(page, 'app.js')).toContain('"Hello, "');
  await snapshot(page, 'sessions-03-fork');

  // A fresh browser (no shared storage) imports the session file and continues it with its own provider.
  const other = await browser.newContext({ baseURL });
  const page2 = await other.newPage();
  await openAndConfigure(page2, mock);
  await page2.getByTestId('import-session').setInputFiles(sessionPath);
  await expect(page2.getByTestId('transfer-result')).toContainText('as a new session');
  await expect(page2.locator('[data-testid="message"][data-role="user"]').first()).toHaveText(/Make the greeting friendlier/);
  await expect(card(page2, 'bash')).toHaveAttribute('data-status', 'error');
  expect(await fileText(page2, 'app.js')).toContain('"Hi, "');
  mock.setScript([textTurn('Picked up where you left off.')]);
  await ask(page2, 'Please continue');
  await expect(page2.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Picked up where you left off.', { timeout: 20_000 });
  const lastRequest = JSON.stringify(mock.requests.at(-1)?.body);
  expect(lastRequest).toContain('Make the greeting friendlier');
  await snapshot(page2, 'sessions-04-imported-continued');
  await other.close();
});

test('a refused zip and a broken session file change nothing and say why', async ({ page, mock }) => {
  await openAndConfigure(page, mock);
  await page.getByTestId('import-zip').setInputFiles({ name: 'ok.zip', mimeType: 'application/zip', buffer: repoZip() });
  await expect(page.getByTestId('import-result')).toContainText('3 files');

  const slip = Buffer.from(zipSync({ '../outside.txt': new TextEncoder().encode('x') }));
  await page.getByTestId('import-zip').setInputFiles({ name: 'evil.zip', mimeType: 'application/zip', buffer: slip });
  await expect(page.getByTestId('import-error')).toContainText('zip slip');
  await expect(page.getByTestId('file-tree')).toContainText('app.js');

  const broken = Buffer.from(zipSync({ 'session.jsonl': new TextEncoder().encode('{"type":"header","format":"conch-session","version":1}\n{"type":"entry","seq":0,"message":{"role":"user"}}\n') }));
  await page.getByTestId('import-session').setInputFiles({ name: 'broken.conch.zip', mimeType: 'application/zip', buffer: broken });
  await expect(page.getByTestId('import-session-error')).toContainText('line 1');
  await expect(page.getByTestId('session-item')).toHaveCount(1);
});

test('rename, search and delete with confirmation', async ({ page, mock }) => {
  mock.setScript([textTurn('One.'), textTurn('Two.')]);
  await openAndConfigure(page, mock);
  await ask(page, 'first session prompt');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('One.');
  await page.getByTestId('new-session').click();
  await ask(page, 'second session prompt');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Two.');
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await expect(page.getByTestId('session-item').first()).toContainText('mock-model');

  await page.getByTestId('session-rename').first().click();
  await page.getByTestId('session-title-input').fill('Renamed work');
  await page.getByTestId('session-title-input').press('Enter');
  await expect(page.getByTestId('session-item').first()).toContainText('Renamed work');

  await page.getByTestId('session-search').fill('renamed');
  await expect(page.getByTestId('session-item')).toHaveCount(1);
  await page.getByTestId('session-search').fill('');

  await page.getByTestId('session-delete').first().click();
  await page.getByTestId('delete-cancel').click();
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await page.getByTestId('session-delete').first().click();
  await page.getByTestId('delete-confirm').click();
  await expect(page.getByTestId('session-item')).toHaveCount(1);
  await expect(page.getByTestId('session-item')).toContainText('first session prompt');
  await page.reload();
  await expect(page.getByTestId('session-item')).toHaveCount(1);
});

test('a second tab opening the same session sees it read-only; another tab’s new session shows up in the list', async ({ page, mock, context }) => {
  mock.setScript([textTurn('Hello from tab one.')]);
  await openAndConfigure(page, mock);
  await ask(page, 'tab one prompt');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('Hello from tab one.');

  const second = await context.newPage();
  await second.goto('/');
  await expect(second.getByTestId('read-only-notice')).toBeVisible({ timeout: 30_000 });
  await expect(second.locator('[data-testid="message"][data-role="user"]')).toHaveText(/tab one prompt/);
  await expect(second.getByTestId('prompt-input')).toHaveCount(0);

  await page.getByTestId('new-session').click();
  await expect(second.getByTestId('session-item')).toHaveCount(2);
  await second.close();
});
