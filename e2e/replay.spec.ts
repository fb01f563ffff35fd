// Replay (issue 23): a session that edited and created files over three turns is exported, imported in a fresh
// browser, and replayed from the first step to the last: at each user message the file tree and a file's content
// are that checkpoint's, an edit step shows its diff, a bash step marks the tree approximate, a reload keeps the
// position, and Continue from here forks at that step. At 1280×800 and 390×844 (a scrubber and tabs).
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { ask, callTurn, expect, openAndConfigure, test, textTurn } from './fixtures';

const ORIGINAL: Record<string, string> = {
  'app.js': 'function greet(name) {\n  return "Hello, " + name;\n}\n',
  'README.md': '# Greeter\n',
  'lib/util.js': 'exports.noop = () => {};\n',
};
const TURNS = [
  { prompt: 'Make the greeting friendlier and add a helper', script: [
    callTurn('edit', { path: 'app.js', edits: [{ oldText: '"Hello, "', newText: '"Hi, "' }] }),
    callTurn('write', { path: 'lib/new.js', content: 'exports.shout = (s) => s.toUpperCase();\n' }),
    textTurn('Done: friendlier, and a helper.'),
  ] },
  { prompt: 'Document it and build', script: [
    callTurn('write', { path: 'README.md', content: '# Greeter\n\nSays hi.\n' }),
    callTurn('bash', { command: 'echo built > out.txt' }),
    textTurn('Documented and built.'),
  ] },
  { prompt: 'One last touch', script: [
    callTurn('edit', { path: 'app.js', edits: [{ oldText: '"Hi, "', newText: '"Hey, "' }] }),
    textTurn('Touched.'),
  ] },
];
/** The tree (paths, lib expanded) and app.js at each user message's checkpoint: the workspace before that turn. */
const CHECKPOINTS = [
  { files: ['lib', 'lib/util.js', 'README.md', 'app.js'], app: '"Hello, "' },
  { files: ['lib', 'lib/new.js', 'lib/util.js', 'README.md', 'app.js'], app: '"Hi, "' },
  { files: ['lib', 'lib/new.js', 'lib/util.js', 'README.md', 'app.js', 'out.txt'], app: '"Hi, "' },
];
const TOTAL_STEPS = 11; // per turn: the user message, each tool call, the closing reply

function repoZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(ORIGINAL)) entries[`greeter-main/${path}`] = new TextEncoder().encode(text);
  return Buffer.from(zipSync(entries));
}

const narrow = (page: Page) => (page.viewportSize()?.width ?? 1280) < 700;

async function openSidebar(page: Page) {
  if (narrow(page)) await page.getByRole('button', { name: 'Show sessions' }).click();
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`replay-${page.viewportSize()?.width}-${name}.png`) });
}

const current = (page: Page) => page.locator('[data-testid="replay-step"][data-current="true"]');

async function showFiles(page: Page) {
  if (narrow(page)) await page.getByTestId('replay-tab-files').click();
}

async function treePaths(page: Page): Promise<string[]> {
  return page.getByTestId('replay-files').getByTestId('replay-file').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path') ?? ''));
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('replays an imported session step by step, with the workspace of each step', async ({ page, mock, browser, baseURL }) => {
      test.setTimeout(150_000);
      await openAndConfigure(page, mock);
      await openSidebar(page);
      await page.getByTestId('import-zip').setInputFiles({ name: 'greeter-main.zip', mimeType: 'application/zip', buffer: repoZip() });
      await expect(page.getByTestId('import-result')).toContainText('3 files');
      if (narrow(page)) await page.mouse.click(360, 500);
      for (const [n, turn] of TURNS.entries()) {
        mock.setScript(turn.script);
        await ask(page, turn.prompt);
        await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(String((turn.script.at(-1)!.content[0] as { text: string }).text), { timeout: 20_000 });
        await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveCount(n + 1);
      }
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

      await openSidebar(page);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-session').click()]);
      const file = test.info().outputPath(download.suggestedFilename());
      await download.saveAs(file);
      expect(file).toMatch(/\.conch\.zip$/);

      // A fresh browser imports it.
      const other = await browser.newContext({ baseURL, viewport: size });
      const page2 = await other.newPage();
      await openAndConfigure(page2, mock);
      await page2.getByTestId('import-session').setInputFiles(file);
      await expect(page2.getByTestId('transfer-result')).toContainText('as a new session');
      if (narrow(page2)) {
        await page2.locator('[data-testid="replay-open"]:visible').click(); // the open session's, in the top bar
      } else {
        await page2.getByTestId('session-list').getByTestId('replay-open').first().click();
      }
      const replay = page2.getByTestId('replay');
      await expect(replay).toBeVisible();
      await expect(page2.getByTestId('replay-position')).toHaveText(`1 / ${TOTAL_STEPS}`);
      await expect(page2).toHaveURL(/#replay=1$/);
      if (narrow(page2)) await expect(page2.getByTestId('replay-scrubber')).toBeVisible();
      else await expect(page2.getByTestId('replay-step')).toHaveCount(TOTAL_STEPS);
      await shot(page2, '01-step-1');

      // Step 1 to the end: at each user message, the tree and app.js are that checkpoint's.
      let users = 0;
      for (let step = 1; step <= TOTAL_STEPS; step++) {
        await expect(page2.getByTestId('replay-position')).toHaveText(`${step} / ${TOTAL_STEPS}`);
        const kind = await current(page2).getAttribute('data-kind');
        if (kind === 'user') {
          const expected = CHECKPOINTS[users++];
          await showFiles(page2);
          const files = page2.getByTestId('replay-files');
          if (!(await page2.locator('[data-testid="replay-file"][data-path="lib/util.js"]').isVisible())) await files.locator('[data-path="lib"]').click();
          await expect.poll(() => treePaths(page2)).toEqual(expected.files);
          await files.locator('[data-path="app.js"]').click();
          await expect(page2.getByTestId('replay-file-view')).toContainText(expected.app);
          await expect(page2.getByTestId('replay-approximate')).toBeHidden();
          await expect(page2.getByTestId('replay-conversation').locator('[data-testid="message"][data-role="user"]')).toHaveCount(users);
          await expect(page2.getByTestId('replay-conversation').locator('[data-testid="fork-message"]')).toHaveCount(0);
          await shot(page2, `02-user-${users}`);
          if (narrow(page2)) await page2.getByTestId('replay-tab-conversation').click();
        }
        if (step === 2) {
          // The first edit: its diff.
          await showFiles(page2);
          const diff = page2.getByTestId('replay-diff');
          await expect(diff.locator('.line.del')).toContainText('"Hello, "');
          await expect(diff.locator('.line.add')).toContainText('"Hi, "');
          await expect(page2.getByTestId('replay-file-view')).toHaveAttribute('data-path', 'app.js');
          await expect(page2.getByTestId('replay-file-view')).toContainText('"Hi, "');
          await shot(page2, '03-edit-diff');
          if (narrow(page2)) await page2.getByTestId('replay-tab-conversation').click();
        }
        if (step === 7) {
          // After the bash command the tree is approximate until the next checkpoint.
          await showFiles(page2);
          await expect(page2.getByTestId('replay-approximate')).toBeVisible();
          await shot(page2, '04-approximate');
          if (narrow(page2)) await page2.getByTestId('replay-tab-conversation').click();
        }
        if (step < TOTAL_STEPS) {
          if (step % 2 === 0) await page2.getByTestId('replay-next').click();
          else await page2.keyboard.press('ArrowRight');
        }
      }
      expect(users).toBe(3);
      await expect(page2.getByTestId('replay-next')).toBeDisabled();
      await page2.keyboard.press('ArrowLeft');
      await expect(page2.getByTestId('replay-position')).toHaveText(`${TOTAL_STEPS - 1} / ${TOTAL_STEPS}`);

      // Jump back to the second user message (from the timeline, or the scrubber on a phone); a reload keeps it.
      if (narrow(page2)) await page2.getByTestId('replay-scrubber').fill('5');
      else await page2.locator('[data-testid="replay-step"][data-index="4"]').click();
      await expect(page2.getByTestId('replay-position')).toHaveText(`5 / ${TOTAL_STEPS}`);
      await expect(current(page2)).toHaveAttribute('data-kind', 'user');
      await expect(page2).toHaveURL(/#replay=5$/);
      await page2.reload();
      await expect(page2.getByTestId('replay-position')).toHaveText(`5 / ${TOTAL_STEPS}`, { timeout: 30_000 });
      await expect(current(page2)).toHaveAttribute('data-index', '4');
      await shot(page2, '05-after-reload');

      // Play at 4× moves on by itself; Pause stops it.
      await page2.getByTestId('replay-speed').selectOption('4');
      await page2.getByTestId('replay-play').click();
      await expect(page2.getByTestId('replay-position')).not.toHaveText(`5 / ${TOTAL_STEPS}`, { timeout: 5_000 });
      await page2.getByTestId('replay-play').click();
      await expect(page2.getByTestId('replay-play')).toHaveText('Play');

      // Continue from here at the second user message: a fork with the conversation before it, opened live.
      await page2.locator('[data-testid="replay-step"][data-index="4"]').evaluate((node: HTMLElement) => node.click());
      await expect(page2.getByTestId('replay-position')).toHaveText(`5 / ${TOTAL_STEPS}`);
      const sessionsBefore = await page2.getByTestId('session-item').count();
      await page2.getByTestId('replay-continue').click();
      await expect(replay).toBeHidden();
      await expect(page2).not.toHaveURL(/#replay/);
      await expect(page2.getByTestId('prompt-input')).toHaveValue(TURNS[1].prompt);
      await expect(page2.locator('[data-testid="message"][data-role="user"]')).toHaveCount(1);
      await openSidebar(page2);
      await expect(page2.getByTestId('session-item')).toHaveCount(sessionsBefore + 1);
      await expect(page2.locator('[data-testid="session-item"][aria-current="true"]')).toContainText('(fork)');
      await shot(page2, '06-continued');
      await other.close();
    });
  });
}
