// git on a real-sized import (bench/lib/big-repo.ts: 20,000 sources, ~48 MB) in the built app: the person's
// `git status` and `git diff` in the Terminal tab and the agent's through its bash tool, each timed from outside (from
// the key press or the prompt to the answer on screen), and a guest script whose execSync('git rev-parse HEAD')
// prints the baseline commit. The figures are printed; the test asserts what the person sees, not the time.
import type { Locator, Page } from '@playwright/test';
import { generateBigRepo, repoZip, type BigRepo } from '../bench/lib/big-repo';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const big = generateBigRepo();
// Without its .git folder the import becomes a repository whose first commit is the imported files.
const repo: BigRepo = { ...big, files: big.files.filter((file) => !file.path.startsWith('.git/')) };
const sources = repo.files.filter((file) => file.path.startsWith('packages/') && file.path.endsWith('.ts'));
const edited = [sources[10], sources[7_000], sources[15_000]].map((file) => file.path);

/** A screen row whose whole text matches `pattern` (xterm renders one element per row). */
const row = (shell: Locator, pattern: RegExp) => shell.locator('.xterm-rows > div').filter({ hasText: pattern });

/**
 * Types `command; echo <marker>` and waits for the marker's row: the command's time as the person sees it, from the
 * key press to the first frame showing the row (a page-side watch, not expect's polling, which is coarse).
 */
async function timedCommand(page: Page, shell: Locator, command: string, marker: string): Promise<number> {
  await page.keyboard.type(`${command}; echo ${marker}`);
  const shown = page.evaluate(
    (marker) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        const look = () => {
          const rows = document.querySelectorAll('[data-testid="terminal-shell"] .xterm-rows > div');
          if (Array.from(rows).some((row) => row.textContent?.trim() === marker)) resolve(performance.now() - started);
          else if (performance.now() - started > 60_000) resolve(-1); // the expect below says what is missing
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
    marker,
  );
  await page.keyboard.press('Enter');
  const ms = await shown;
  await expect(row(shell, new RegExp(`^\\s*${marker}\\s*$`))).toHaveCount(1, { timeout: 60_000 });
  return Math.round(ms);
}

const bashCards = (page: Page) => page.locator('[data-testid="tool-call"][data-tool="bash"]');

test('git status and git diff on the 20,000-file import, in the terminal and through the agent; execSync reaches git', async ({ page, mock }) => {
  test.setTimeout(300_000);
  await openAndConfigure(page, mock);
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-kind', 'embedded');
  await page.getByTestId('import-zip').setInputFiles({ name: 'big-repo-main.zip', mimeType: 'application/zip', buffer: Buffer.from(repoZip(repo)) });
  await expect(page.getByTestId('import-result')).toContainText(`${repo.files.length.toLocaleString('en-US')} files`, { timeout: 180_000 });

  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 15_000 });
  await shell.click();

  const times: Record<string, number> = {};
  // What the terminal's own round trip costs (key press, the shell, the screen), for reading the rows below.
  times['echo (the terminal round trip alone)'] = await timedCommand(page, shell, 'echo warm', 'ECHO-DONE');
  times['first git status (makes the baseline repository)'] = await timedCommand(page, shell, 'git status --short', 'FIRST-DONE');
  times['git status, clean'] = await timedCommand(page, shell, 'git status', 'CLEAN-DONE');
  await expect(row(shell, /nothing to commit, working tree clean/)).toHaveCount(1);
  await timedCommand(page, shell, edited.map((path) => `echo "// touched" >> ${path}`).join('; '), 'EDITS-DONE');
  times['git status --short after a 3-file edit'] = await timedCommand(page, shell, 'git status --short', 'SHORT-DONE');
  for (const path of edited) await expect(row(shell, new RegExp(`^\\s*M ${path.replace(/[.]/g, '\\.')}\\s*$`))).toHaveCount(1);
  times['git diff --stat'] = await timedCommand(page, shell, 'git diff --stat', 'STAT-DONE');
  await expect(row(shell, /3 files changed, 3 insertions\(\+\)/)).toHaveCount(1);
  times['git diff'] = await timedCommand(page, shell, 'git diff', 'DIFF-DONE');
  await expect(row(shell, /^\s*\+\/\/ touched\s*$/)).toHaveCount(3);
  await snapshot(page, 'git-big-01-terminal');

  // A guest script shells out to git: the commit it prints is the one the terminal's git names.
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  await timedCommand(page, shell, `echo "console.log('HEAD=' + require('child_process').execSync('git rev-parse HEAD').toString().trim())" > head.js`, 'WROTE-DONE');
  times['node head.js (execSync git rev-parse HEAD)'] = await timedCommand(page, shell, 'node head.js && git rev-parse HEAD | sed "s/^/REAL=/"', 'HEAD-DONE');
  const text = await shell.locator('.xterm-rows').innerText();
  const guest = /HEAD=([0-9a-f]{40})/.exec(text)?.[1];
  const real = /REAL=([0-9a-f]{40})/.exec(text)?.[1];
  expect(guest).toMatch(/^[0-9a-f]{40}$/);
  expect(guest).toBe(real);
  await snapshot(page, 'git-big-02-exec-sync');

  // The agent's own git, through its bash tool.
  mock.setScript([callTurn('bash', { command: 'git status --short' }), callTurn('bash', { command: 'git diff' }), textTurn('Three files carry the touch.')]);
  const asked = Date.now();
  await ask(page, 'Which files did I change?');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Three files carry the touch.', { timeout: 60_000 });
  times['agent: git status --short + git diff, prompt to reply'] = Date.now() - asked;
  const [statusCard, diffCard] = [bashCards(page).nth(0), bashCards(page).nth(1)];
  await expect(statusCard).toHaveAttribute('data-status', 'done');
  for (const path of edited) await expect(statusCard).toContainText(`M ${path}`);
  await expect(statusCard).toContainText('?? head.js');
  await expect(diffCard).toContainText(`diff --git a/${edited[0]} b/${edited[0]}`);
  await expect(diffCard).toContainText('+// touched');
  await snapshot(page, 'git-big-03-agent');

  // Back in the terminal: everything committed, and the tree is clean again.
  await page.getByRole('tab', { name: 'Terminal' }).click();
  await shell.click();
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  times['git add -A && git commit'] = await timedCommand(page, shell, 'git add -A && git commit -q -m "Touch three files"', 'COMMIT-DONE');
  times['git status after the commit'] = await timedCommand(page, shell, 'git status && git log --oneline | head -n 2', 'AFTER-DONE');
  await expect(row(shell, /nothing to commit, working tree clean/)).toHaveCount(1);
  await expect(row(shell, /^\s*[0-9a-f]{7} Touch three files\s*$/)).toHaveCount(1);
  await snapshot(page, 'git-big-04-committed');

  for (const [label, ms] of Object.entries(times)) console.log(`  ${label.padEnd(56)} ${String(ms).padStart(6)} ms`);
});
