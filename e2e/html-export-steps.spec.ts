// The HTML export steps through the session (issue 23, part 3), at desktop size (1280×800) and on a phone (390×844):
// a session that wrote a file, edited it and wrote another, exported as .html and opened from disk, walks its steps
// with Next and Previous (and ← →): the position follows, the current step is marked, the edit's diff and the new
// file's content show at their steps, and a reload keeps the step. With JavaScript off, the same file shows every
// message and every change, and no dead controls.
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const LAYOUTS = [
  { name: 'desktop', phone: false, use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', phone: true, use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
] as const;

const GREET = 'function greet(name) {\n  return "Hello, " + name;\n}\n';
const NOTES = '# Notes\n\nThe greeting is <b>short</b> now: <img src=x onerror=alert(1)>\n';
const PROMPTS = ['Write greet.js', 'Make the greeting shorter, and note it'];
const REPLIES = ['Wrote greet.js.', 'Greeting changed; notes written.'];
const KINDS = ['user', 'tool', 'assistant', 'user', 'tool', 'tool', 'assistant'];

const steps = (page: Page) => page.getByTestId('replay-step');
const current = (page: Page) => page.locator('[data-testid="replay-step"][data-current="true"]');

for (const layout of LAYOUTS) {
  test.describe(`HTML export steps, ${layout.name} ${layout.use.viewport.width}×${layout.use.viewport.height}`, () => {
    test.use(layout.use);
    const shot = (page: Page, name: string) => snapshot(page, `html-steps-${layout.name}-${name}`);

    /** Runs the two turns through the mock provider and saves the session's HTML export; returns its file URL. */
    async function exportedSession(page: Page, mock: Parameters<typeof openAndConfigure>[1]): Promise<string> {
      mock.setScript([
        callTurn('write', { path: 'greet.js', content: GREET }),
        textTurn(REPLIES[0]),
        callTurn('edit', { path: 'greet.js', edits: [{ oldText: '"Hello, "', newText: '"Hi, "' }] }),
        callTurn('write', { path: 'NOTES.md', content: NOTES }),
        textTurn(REPLIES[1]),
      ]);
      await openAndConfigure(page, mock);
      const replies = page.locator('[data-testid="message"][data-role="assistant"]');
      for (const [turn, prompt] of PROMPTS.entries()) {
        await ask(page, prompt);
        await expect(replies.last()).toContainText(REPLIES[turn]);
      }
      if (layout.phone) await page.getByRole('button', { name: 'Show sessions' }).click();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-session-html').click()]);
      const path = test.info().outputPath('session.html');
      await download.saveAs(path);
      return pathToFileURL(path).href;
    }

    test('Next and Previous walk the steps, each showing its change; a reload keeps the step', async ({ page, mock }) => {
      const url = await exportedSession(page, mock);
      const viewer = await page.context().newPage();
      await viewer.goto(url);

      await expect(steps(viewer)).toHaveCount(KINDS.length);
      expect(await steps(viewer).evaluateAll((all) => all.map((s) => s.getAttribute('data-kind')))).toEqual(KINDS);
      const position = viewer.getByTestId('replay-position');
      await expect(position).toHaveText(`1 / ${KINDS.length}`);
      await expect(viewer.getByTestId('replay-prev')).toBeDisabled();
      await expect(current(viewer)).toHaveAttribute('data-index', '0');
      await expect(current(viewer)).toContainText(PROMPTS[0]);
      // Opening the page leaves it at its top: the title shows, under the controls.
      expect(await viewer.evaluate(() => window.scrollY)).toBe(0);
      await expect(viewer.locator('h1')).toBeInViewport();
      await shot(viewer, '01-first-step');

      await viewer.getByTestId('replay-next').click();
      await expect(position).toHaveText(`2 / ${KINDS.length}`);
      await expect(current(viewer)).toHaveAttribute('data-tool', 'write');
      await expect(current(viewer).getByTestId('replay-diff')).toHaveText(GREET.trimEnd());
      await expect(current(viewer).getByTestId('replay-diff')).toBeInViewport();

      for (const shown of [3, 4, 5]) {
        await viewer.getByTestId('replay-next').click();
        await expect(position).toHaveText(`${shown} / ${KINDS.length}`);
      }
      const edit = current(viewer);
      await expect(edit).toHaveAttribute('data-tool', 'edit');
      const diff = edit.getByTestId('replay-diff');
      await expect(diff).toBeInViewport();
      await expect(diff.locator('.del')).toHaveText(['−  return "Hello, " + name;']);
      await expect(diff.locator('.add')).toHaveText(['+  return "Hi, " + name;']);
      await shot(viewer, '02-edit-step');

      await viewer.keyboard.press('ArrowRight');
      await expect(position).toHaveText(`6 / ${KINDS.length}`);
      // The hostile markup the model wrote is the new file's text, not elements of the page.
      await expect(current(viewer).getByTestId('replay-diff')).toHaveText(NOTES.trimEnd());
      await expect(viewer.locator('img')).toHaveCount(0);
      await viewer.getByTestId('replay-next').click();
      await expect(position).toHaveText(`7 / ${KINDS.length}`);
      await expect(viewer.getByTestId('replay-next')).toBeDisabled();
      await expect(current(viewer)).toContainText(REPLIES[1]);

      await viewer.getByTestId('replay-prev').click();
      await viewer.keyboard.press('ArrowLeft');
      await expect(position).toHaveText(`5 / ${KINDS.length}`);
      await expect(current(viewer)).toHaveAttribute('data-tool', 'edit');
      await shot(viewer, '03-back-to-the-edit');

      expect(new URL(viewer.url()).hash).toBe('#step-5');
      await viewer.reload();
      await expect(position).toHaveText(`5 / ${KINDS.length}`);
      await expect(current(viewer).getByTestId('replay-diff')).toBeInViewport();

      // A step chosen by clicking it becomes the current one.
      await steps(viewer).nth(0).locator('pre').first().click();
      await expect(position).toHaveText(`1 / ${KINDS.length}`);
    });

    test('with JavaScript off, every message and change is on the page, and no controls', async ({ page, mock, browser }) => {
      const url = await exportedSession(page, mock);
      const context = await browser.newContext({ ...layout.use, javaScriptEnabled: false });
      const viewer = await context.newPage();
      await viewer.goto(url);

      await expect(steps(viewer)).toHaveCount(KINDS.length);
      for (const [kind, texts] of [['user', PROMPTS], ['assistant', REPLIES]] as const) {
        const shown = viewer.locator(`[data-testid="replay-step"][data-kind="${kind}"] pre.text`);
        await expect(shown).toHaveText([...texts]);
        for (const text of await shown.all()) await expect(text).toBeVisible();
      }
      const changes = viewer.getByTestId('replay-diff');
      await expect(changes).toHaveText([GREET.trimEnd(), /−\s+return "Hello, " \+ name;\s*\+\s+return "Hi, " \+ name;/, NOTES.trimEnd()]);
      for (const change of await changes.all()) {
        await change.scrollIntoViewIfNeeded();
        await expect(change).toBeVisible();
      }
      for (const control of ['replay-next', 'replay-prev', 'replay-position']) await expect(viewer.getByTestId(control)).toHaveCount(0);
      await expect(viewer.locator('[data-current]')).toHaveCount(0);
      await viewer.locator('h1').scrollIntoViewIfNeeded();
      await shot(viewer, '04-without-javascript');
      await context.close();
    });
  });
}
