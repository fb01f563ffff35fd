// Subagent tasks in the HTML export (issue 24, part 3), opened from disk at desktop size and on a phone: each task is a
// closed group under the call that started it; stepping into its transcript opens the group and marks the step, and
// with JavaScript off the group is still there to open by hand.
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { exportSessionHtml } from '../src/store/files/html-export';
import { assistant, call, result, task, user } from '../src/store/testing/messages';
import { expect, snapshot, test } from './fixtures';

const LAYOUTS = [
  { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true } },
] as const;

const messages = [
  user('Look around, then make the greeting friendlier'),
  assistant([call('t1', 'task', { description: 'Find the greeting' }), call('t2', 'task', { description: 'Make it friendlier' })]),
  result('t1', 'The greeting is in greet.js.', 'task'),
  result('t2', 'Changed greet.js.', 'task'),
  assistant('Both done.'),
];
const tasks = [
  task('t1', { description: 'Find the greeting', result: 'The greeting is in greet.js.' }),
  task('t2', {
    agent: 'worker',
    description: 'Make it friendlier',
    queuedAt: 11,
    filesChanged: ['greet.js'],
    outcome: 'merged',
    messages: [user('Make it friendlier'), assistant([call('e1', 'edit', { path: 'greet.js' })]), result('e1', 'edited', 'edit'), assistant('Changed greet.js.')],
    result: 'Changed greet.js.',
  }),
];
// The session's steps, then each task's after its call: user, t1 call, (t1: tool, reply), t2 call, (t2: tool, reply), reply.
const KINDS = ['user', 'tool', 'user', 'tool', 'assistant', 'tool', 'user', 'tool', 'assistant', 'assistant'];

const current = (page: Page) => page.locator('[data-testid="replay-step"][data-current="true"]');

async function exportedFile(): Promise<string> {
  const path = test.info().outputPath('tasks.html');
  await writeFile(path, exportSessionHtml({ title: 'Subagents', createdAt: 0, model: 'm', provider: 'p' }, messages, { tasks }));
  return pathToFileURL(path).href;
}

for (const layout of LAYOUTS) {
  test.describe(`HTML export tasks, ${layout.name}`, () => {
    test.use(layout.use);

    test('each task is a closed group under its call; stepping into it opens it', async ({ page }) => {
      await page.goto(await exportedFile());
      const cards = page.getByTestId('task-card');
      await expect(cards).toHaveCount(2);
      expect(await cards.evaluateAll((all) => all.map((d) => [d.getAttribute('data-status'), (d as HTMLDetailsElement).open]))).toEqual([['done', false], ['done', false]]);
      expect(await page.getByTestId('replay-step').evaluateAll((all) => all.map((s) => s.getAttribute('data-kind')))).toEqual(KINDS);
      await expect(cards.nth(1).locator('summary')).toContainText('Make it friendlier');
      await expect(cards.nth(1).locator('summary')).toContainText('worker · done · 1 tool call');
      await snapshot(page, `html-tasks-${layout.name}-01-closed`);

      for (let i = 0; i < 3; i++) await page.getByTestId('replay-next').click();
      await expect(page.getByTestId('replay-position')).toHaveText(`4 / ${KINDS.length}`);
      // The current step is inside the first task's transcript: its group opened, the second stays closed.
      await expect(cards.nth(0)).toHaveJSProperty('open', true);
      await expect(cards.nth(1)).toHaveJSProperty('open', false);
      await expect(current(page)).toBeInViewport();
      await expect(cards.nth(0).getByTestId('task-transcript')).toContainText('Find where the config is loaded');
      await snapshot(page, `html-tasks-${layout.name}-02-stepped-in`);
    });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });
      test('the groups are there to open by hand', async ({ page }) => {
        await page.goto(await exportedFile());
        const worker = page.getByTestId('task-card').nth(1);
        await worker.locator('summary').click();
        await expect(worker.getByTestId('task-transcript')).toContainText('Changed greet.js.');
        await expect(worker).toContainText('Files changed (merged): greet.js');
      });
    });
  });
}
