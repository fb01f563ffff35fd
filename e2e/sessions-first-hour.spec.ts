// The first hour's Sessions items (issue 13), at desktop size (1280×800) and on a phone (390×844, where the sessions
// are a drawer): "New session" reuses an empty session; an imported session is "<title> (imported)" once, with the
// original's day; download names are a slug plus the date; search finds message text, marks the match and brings the
// message into view; the secret review shows a masked snippet and "Show in transcript"; the HTML export shows tool
// calls as the app's cards do. Each flow asserts what a person sees and saves screenshots.
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from '@playwright/test';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const LAYOUTS = [
  { name: 'desktop', phone: false, use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', phone: true, use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
] as const;

/** A reply long enough that the messages before it scroll out of view. */
const LONG_REPLY = Array.from({ length: 40 }, (_, i) => `Step ${i + 1}: one more paragraph of the explanation, so the conversation scrolls.`).join('\n\n');
const FAKE_KEY_TAIL = 'Zx9Qw4Er7Ty1Ui3Op5As8DfGh';
const FAKE_KEY = `sk-proj-${FAKE_KEY_TAIL}`;

const replies = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');
const items = (page: Page) => page.getByTestId('session-item');
const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);
/** The transcript row marked as the one just brought into view. */
const foundRow = (page: Page) => page.locator('[data-row][data-found="true"]');

for (const layout of LAYOUTS) {
  test.describe(`sessions, first hour, ${layout.name} ${layout.use.viewport.width}×${layout.use.viewport.height}`, () => {
    test.use({ ...layout.use, locale: 'en-US', timezoneId: 'UTC' });
    const shot = (page: Page, name: string) => snapshot(page, `sessions-fh-${layout.name}-${name}`);

    /** Shows the session list: on a phone, opens the drawer (which must be closed). */
    async function openSessions(page: Page): Promise<void> {
      if (layout.phone) {
        await expect(page.getByRole('button', { name: 'Close sessions' })).toHaveCount(0);
        await page.getByRole('button', { name: 'Show sessions' }).click();
      }
      await expect(page.getByTestId('session-list')).toBeVisible();
    }

    /** Back to the conversation: on a phone, closes the drawer by tapping beside it. */
    async function closeSessions(page: Page): Promise<void> {
      if (!layout.phone) return;
      await page.getByRole('button', { name: 'Close sessions' }).click({ position: { x: 360, y: 400 } });
      await expect(page.getByTestId('session-list')).toBeHidden();
    }

    /** On a phone, choosing a session (or New session) closes the drawer: wait for it to be gone. */
    async function drawerClosedByNavigation(page: Page): Promise<void> {
      if (layout.phone) await expect(page.getByTestId('session-list')).toBeHidden();
    }

    async function download(page: Page, testId: string): Promise<Download> {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
      return file;
    }

    async function importSessionFile(page: Page, name: string, buffer: Buffer): Promise<void> {
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Import session file' }).click();
      await (await chooser).setFiles({ name, mimeType: 'application/zip', buffer });
    }

    test('New session on an empty session keeps the count; after a message it starts another', async ({ page, mock }) => {
      await openAndConfigure(page, mock);
      await openSessions(page);
      await expect(items(page)).toHaveCount(1);
      const empty = await items(page).first().getAttribute('data-session-id');
      for (let click = 0; click < 2; click++) {
        await page.getByTestId('new-session').click();
        await drawerClosedByNavigation(page);
        await openSessions(page);
      }
      await expect(items(page)).toHaveCount(1);
      await expect(items(page).first()).toHaveAttribute('data-session-id', empty!);
      await expect(items(page).first()).toHaveAttribute('aria-current', 'true');
      await shot(page, '01-new-session-reused');

      // The message goes into that same session: still one.
      await closeSessions(page);
      mock.setScript([textTurn('Hello there.')]);
      await ask(page, 'Say hello');
      await expect(replies(page).last()).toContainText('Hello there.');
      await openSessions(page);
      await expect(items(page)).toHaveCount(1);
      await expect(items(page).first()).toContainText('Say hello');

      // Now New session starts another; clicked again on that empty one, it adds nothing. Opening the first waits
      // behind those clicks, so the count after it is the count they left.
      await page.getByTestId('new-session').click();
      await drawerClosedByNavigation(page);
      await expect(page.getByTestId('message')).toHaveCount(0);
      await openSessions(page);
      await expect(items(page)).toHaveCount(2);
      await page.getByTestId('new-session').click();
      await drawerClosedByNavigation(page);
      await openSessions(page);
      await items(page).filter({ hasText: 'Say hello' }).click();
      await drawerClosedByNavigation(page);
      await expect(page.locator('[data-testid="message"][data-role="user"]')).toHaveText(/Say hello/);
      await openSessions(page);
      await expect(items(page)).toHaveCount(2);
      await expect(items(page).filter({ hasText: 'New session' })).toHaveCount(1);
      await shot(page, '02-new-session-after-message');
    });

    test('export and import: a slug-and-date file name, "(imported)" once, the original’s day', async ({ page, mock }) => {
      const title = 'Write a hello.sh script that greets the world politely';
      mock.setScript([textTurn('Here is hello.sh.')]);
      await openAndConfigure(page, mock);
      await ask(page, title);
      await expect(replies(page).last()).toContainText('Here is hello.sh.');
      await openSessions(page);

      const exported = await download(page, 'export-session');
      const name = exported.suggestedFilename();
      expectDownloadName(name, '.conch.zip');
      expect(slugOf(name, '.conch.zip')).toBe('write-a-hello-sh-script-that-greets-the-world-politely');

      // The file as someone would send it weeks later: the session was started on 14 March 2025.
      const older = withStartDate(readFileSync(await exported.path()), Date.UTC(2025, 2, 14, 12));
      await importSessionFile(page, 'shared.conch.zip', older);
      await expect(page.getByTestId('transfer-result')).toContainText(`Imported “${title}” as a new session.`);
      await expect(items(page)).toHaveCount(2);
      const imported = items(page).filter({ hasText: '(imported)' });
      await expect(imported).toHaveCount(1);
      await expect(imported.locator('.title')).toHaveText(`${title} (imported)`);
      await expect(imported.getByTestId('session-origin')).toHaveText('from Mar 14, 2025');
      await expect(imported.getByTestId('session-origin')).toHaveAttribute('title', new RegExp(`from “${title}”, started Mar 14, 2025`));
      // Seen, not just in the page: the long title is cut, but not its "(imported)", nor the original's day.
      await expectUncut(imported.getByText('(imported)'));
      await expectUncut(imported.getByTestId('session-origin'));
      await expect(items(page).filter({ hasNotText: '(imported)' }).locator('.title')).toHaveText(title);
      await shot(page, '03-imported-session');

      // Shared on again: the import of the import is still "(imported)" once, from the same day.
      await expect(imported).toHaveAttribute('aria-current', 'true');
      const reshared = await download(page, 'export-session');
      expectDownloadName(reshared.suggestedFilename(), '.conch.zip');
      await importSessionFile(page, 'reshared.conch.zip', readFileSync(await reshared.path()));
      await expect(items(page)).toHaveCount(3);
      await expect(items(page).filter({ hasText: '(imported)' })).toHaveCount(2);
      await expect(items(page).filter({ hasText: '(imported) (imported)' })).toHaveCount(0);
      for (const row of await items(page).filter({ hasText: '(imported)' }).all()) {
        await expect(row.locator('.title')).toHaveText(`${title} (imported)`);
        await expect(row.getByTestId('session-origin')).toHaveText('from Mar 14, 2025');
        await expectUncut(row.getByText('(imported)'));
      }
      await shot(page, '04-imported-twice');
    });

    test('search finds a reply’s text, marks it in a snippet, and opening the result shows that message', async ({ page, mock }) => {
      mock.setScript([
        textTurn('I replaced the hand-written padding in strings.js with left-pad, which already handles every case.'),
        textTurn(LONG_REPLY),
        textTurn('Added an entry for this release.'),
      ]);
      await openAndConfigure(page, mock);
      await ask(page, 'Tidy up the string helpers');
      await expect(replies(page).last()).toContainText('left-pad');
      await ask(page, 'Now explain the rest');
      await expect(replies(page).last()).toContainText('Step 40');
      await openSessions(page);
      await page.getByTestId('new-session').click();
      await drawerClosedByNavigation(page);
      await ask(page, 'Write the changelog');
      await expect(replies(page).last()).toContainText('Added an entry');
      // On a phone the person was looking at the files: opening the result goes back to the conversation.
      if (layout.phone) await page.getByTestId('view-workspace').click();

      await openSessions(page);
      await page.getByTestId('session-search').fill('left-pad');
      await expect(items(page)).toHaveCount(1);
      const result = items(page).first();
      await expect(result.locator('.title')).toHaveText('Tidy up the string helpers');
      await expect(result.getByTestId('session-snippet')).toContainText('in strings.js with left-pad, which already');
      await expect(result.getByTestId('session-snippet').locator('mark')).toHaveText('left-pad');
      await shot(page, '05-search-snippet');

      await result.click();
      await drawerClosedByNavigation(page);
      await expect(page.locator('[data-testid="message"][data-role="user"]').first()).toHaveText(/Tidy up the string helpers/);
      const match = replies(page).filter({ hasText: 'with left-pad' });
      await expect(foundRow(page)).toContainText('with left-pad');
      await expect(match).toBeInViewport();
      // The session opened at its end would not show it: the long reply after it fills more than the screen.
      await expect(page.getByText('Step 40:')).not.toBeInViewport();
      await shot(page, '06-search-result-shown');
    });

    test('the secret review shows a masked snippet, where it is in words, and Show in transcript', async ({ page, mock }) => {
      // The command builds the key from two strings, so only its output holds the key whole.
      mock.setScript([callTurn('bash', { command: `echo api_key = sk-proj-"${FAKE_KEY_TAIL}"` }), textTurn(LONG_REPLY)]);
      await openAndConfigure(page, mock);
      await ask(page, 'Show me the app config');
      await expect(replies(page).last()).toContainText('Step 40');
      await expect(card(page, 'bash')).not.toBeInViewport();

      await openSessions(page);
      await page.getByTestId('export-session').click();
      const review = page.getByTestId('secret-review');
      await expect(review).toBeVisible();
      await expect(review.getByTestId('secret-finding')).toHaveCount(1);
      await expect(review.getByTestId('secret-finding')).toHaveAttribute('data-kind', 'openai-key');
      await expect(review.getByTestId('secret-context')).toHaveText(/^api_key = sk-proj-•+Gh$/);
      await expect(review.getByTestId('secret-finding')).toContainText('In the output of bash');
      await expect(review).not.toContainText(FAKE_KEY_TAIL.slice(0, 6));
      await expect(review).not.toContainText(FAKE_KEY);
      await shot(page, '07-secret-review');

      await review.getByTestId('secret-show').click();
      await expect(review).toBeHidden();
      await drawerClosedByNavigation(page);
      await expect(foundRow(page).getByTestId('tool-call')).toHaveAttribute('data-tool', 'bash');
      await expect(card(page, 'bash')).toBeInViewport();
      await expect(card(page, 'bash')).toContainText(FAKE_KEY);
      await shot(page, '08-secret-shown-in-transcript');
    });

    test('the HTML export shows bash, write and edit calls as the app’s cards, not as JSON', async ({ page, mock }) => {
      const content = 'function greet(name) {\n  return "Hello, " + name;\n}\n';
      mock.setScript([
        callTurn('write', { path: 'greet.js', content }),
        callTurn('bash', { command: 'grep -n Hello greet.js' }),
        callTurn('edit', { path: 'greet.js', edits: [{ oldText: '"Hello, "', newText: '"Hi, "' }] }),
        textTurn('Greeting changed.'),
      ]);
      await openAndConfigure(page, mock);
      await ask(page, 'Make the greeting shorter');
      await expect(replies(page).last()).toContainText('Greeting changed.');
      await expect(card(page, 'edit')).toHaveAttribute('data-status', 'done');

      await openSessions(page);
      const exported = await download(page, 'export-session-html');
      expectDownloadName(exported.suggestedFilename(), '.html');
      const html = readFileSync(await exported.path(), 'utf8');
      const viewer = await page.context().newPage();
      await viewer.setContent(html);

      const bash = viewer.locator('.tool-call[data-tool="bash"]');
      await expect(bash.locator('pre.command')).toHaveText('grep -n Hello greet.js');
      await expect(bash.locator('pre.output')).toHaveText('2:  return "Hello, " + name;');
      const write = viewer.locator('.tool-call[data-tool="write"]');
      await expect(write).toContainText('Write greet.js');
      await expect(write.locator('pre.content')).toHaveText(content.trimEnd());
      const edit = viewer.locator('.tool-call[data-tool="edit"]');
      await expect(edit).toContainText('Edit greet.js');
      await expect(edit.locator('.diff .del')).toHaveText(['−  return "Hello, " + name;']);
      await expect(edit.locator('.diff .add')).toHaveText(['+  return "Hi, " + name;']);
      const text = await viewer.locator('body').innerText();
      for (const raw of ['{"command":', '{"path":', '"content":', '"edits":', '"oldText"']) expect(text).not.toContain(raw);
      await snapshot(viewer, `sessions-fh-${layout.name}-09-html-export`);
      await viewer.close();
    });
  });
}

/** `text` shows whole: not cut short with an ellipsis, nor clipped by a box around it in its session row. */
async function expectUncut(text: Locator): Promise<void> {
  await expect(text).toBeVisible();
  const whole = await text.evaluate((el) => {
    const box = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1) return false;
    for (let outer = el.parentElement; outer && !outer.matches('li'); outer = outer.parentElement) {
      const around = outer.getBoundingClientRect();
      if (getComputedStyle(outer).overflowX !== 'visible' && (box.left < around.left - 0.5 || box.right > around.right + 0.5)) return false;
    }
    return true;
  });
  expect(whole, `"${await text.innerText()}" shows whole`).toBe(true);
}

/** A download name: a slug of at most 60 characters, the date, the extension. */
function expectDownloadName(name: string, extension: string): void {
  expect(name).toMatch(new RegExp(`^[a-z0-9-]+-\\d{4}-\\d{2}-\\d{2}${extension.replace(/\./g, '\\.')}$`));
  expect(slugOf(name, extension).length).toBeLessThanOrEqual(60);
  expect(name).toContain(new Date().toISOString().slice(0, 10));
}

function slugOf(name: string, extension: string): string {
  return name.slice(0, -extension.length).replace(/-\d{4}-\d{2}-\d{2}$/, '');
}

/** A session file with its header's start date changed to `createdAt`. */
function withStartDate(file: Buffer, createdAt: number): Buffer {
  const entries = unzipSync(new Uint8Array(file));
  const [header, ...rest] = strFromU8(entries['session.jsonl']).split('\n');
  entries['session.jsonl'] = strToU8([JSON.stringify({ ...JSON.parse(header), createdAt }), ...rest].join('\n'));
  return Buffer.from(zipSync(entries));
}
