// Subagents (issue 24) against the mock provider: one message with two explore tasks and two workers that edit
// different files merges both, each task a card that expands to its own transcript, and the parent's next request
// carries only the tasks' results; two workers editing the same line give one conflict card while the live workspace
// holds only the clean one's change, and Apply then takes the other; a reload mid-task shows it interrupted with its
// partial transcript; the session file keeps the tasks through an export and an import elsewhere.
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import type { MockProvider, RecordedRequest } from './mock-provider/server';
import { ask, expect, openAndConfigure, snapshot, test, textTurn, type MockTurn } from './fixtures';

const FILES: Record<string, string> = {
  'alpha.txt': 'alpha one\nalpha two\nalpha three\n',
  'beta.txt': 'beta one\nbeta two\nbeta three\n',
  'notes/readme.md': '# Notes\n',
};

function repoZip(): Buffer {
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries(FILES)) entries[`project-main/${path}`] = new TextEncoder().encode(text);
  return Buffer.from(zipSync(entries));
}

const task = (id: string, agent: string, description: string, prompt: string) => ({
  type: 'toolCall' as const,
  id,
  name: 'task',
  arguments: { description, prompt, agent },
});
/** A subagent's turn: served only to the request whose last user message is its prompt. */
const sub = (prompt: string, content: MockTurn['content'], extra: Partial<MockTurn> = {}): MockTurn => ({ when: { lastUserContains: prompt }, content, delayMs: 500, ...extra });
const call = (name: string, args: Record<string, unknown>) => ({ type: 'toolCall' as const, name, arguments: args });
const text = (t: string) => ({ type: 'text' as const, text: t });

const card = (page: Page, id: string) => page.locator(`[data-testid="task-card"][data-call-id="${id}"]`);
const cardByDescription = (page: Page, description: string) => page.getByTestId('task-card').filter({ hasText: description });
const toolNames = (request: RecordedRequest) => ((request.body as { tools?: { function?: { name: string } }[] }).tools ?? []).map((t) => t.function?.name);
/** A subagent's requests: its prompt is the first message after the system prompt. */
const requestFor = (mock: MockProvider, prompt: string) =>
  mock.requests.filter((r) => JSON.stringify((r.body as { messages: { role: string }[] }).messages.find((m) => m.role !== 'system')).includes(prompt));

async function importProject(page: Page): Promise<void> {
  await page.getByTestId('import-zip').setInputFiles({ name: 'project-main.zip', mimeType: 'application/zip', buffer: repoZip() });
  await expect(page.getByTestId('import-result')).toContainText('3 files');
}

/** The file's text as the Files tab shows it (opened from the tree, then back to the tree). */
async function fileText(page: Page, path: string): Promise<string> {
  await page.getByTestId('file-tree').getByText(path, { exact: true }).click();
  const viewer = page.getByTestId('file-viewer').locator('.cm-content');
  await expect(viewer).toBeVisible();
  const shown = (await viewer.innerText()).replace(/\u200b/g, '');
  await page.getByRole('button', { name: 'Back to the file tree' }).click();
  return shown;
}

test('two explore tasks and two workers in one message: both workers merge, each card expands to its transcript', async ({ page, mock }) => {
  test.setTimeout(90_000);
  mock.setScript([
    { content: [
      text('I will split this up.'),
      task('t-explore-a', 'explore', 'Explore alpha', 'EXPLORE-ALPHA: what does alpha.txt say?'),
      task('t-explore-b', 'explore', 'Explore beta', 'EXPLORE-BETA: what does beta.txt say?'),
      task('t-work-a', 'worker', 'Change alpha', 'WORK-ALPHA: change alpha two to ALPHA TWO'),
      task('t-work-b', 'worker', 'Change beta', 'WORK-BETA: change beta three to BETA THREE'),
    ] },
    sub('EXPLORE-ALPHA', [call('read', { path: 'alpha.txt' })]),
    sub('EXPLORE-ALPHA', [text('Alpha has three lines.')]),
    sub('EXPLORE-BETA', [call('grep', { pattern: 'beta', path: '.' })]),
    sub('EXPLORE-BETA', [text('Beta has three lines too.')]),
    sub('WORK-ALPHA', [call('edit', { path: 'alpha.txt', edits: [{ oldText: 'alpha two', newText: 'ALPHA TWO' }] })]),
    sub('WORK-ALPHA', [text('Alpha changed.')]),
    sub('WORK-BETA', [call('edit', { path: 'beta.txt', edits: [{ oldText: 'beta three', newText: 'BETA THREE' }] })]),
    sub('WORK-BETA', [text('Beta changed.')]),
    { when: { lastToolResultContains: 'Beta changed.' }, content: [text('All four tasks are done.')] },
  ]);
  await openAndConfigure(page, mock);
  await importProject(page);
  await ask(page, 'Look at both files and change them');

  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('All four tasks are done.', { timeout: 30_000 });
  await expect(page.getByTestId('task-card')).toHaveCount(4);
  for (const id of ['t-explore-a', 't-explore-b']) await expect(card(page, id)).toHaveAttribute('data-agent', 'explore');
  for (const id of ['t-work-a', 't-work-b']) await expect(card(page, id)).toHaveAttribute('data-agent', 'worker');
  for (const id of ['t-explore-a', 't-explore-b', 't-work-a', 't-work-b']) await expect(card(page, id)).toHaveAttribute('data-status', 'done');
  await expect(card(page, 't-work-a')).toContainText('alpha.txt');
  await snapshot(page, 'subagents-01-four-done');

  // The session's usage opens each task's share.
  await page.getByTestId('session-usage').click();
  await expect(page.getByTestId('task-costs')).toBeVisible();
  await expect(page.getByTestId('task-cost')).toHaveCount(4);
  await expect(page.getByTestId('task-cost').filter({ hasText: 'Change beta' })).toHaveAttribute('data-agent', 'worker');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('task-costs')).toBeHidden();

  // Both workers' changes are in the live workspace.
  expect(await fileText(page, 'alpha.txt')).toContain('ALPHA TWO');
  expect(await fileText(page, 'beta.txt')).toContain('BETA THREE');

  // The explore tasks were offered no tool that writes; no subagent was offered task.
  for (const request of requestFor(mock, 'EXPLORE-ALPHA')) {
    expect(toolNames(request)).not.toContain('write');
    expect(toolNames(request)).not.toContain('edit');
    expect(toolNames(request)).not.toContain('bash');
    expect(toolNames(request)).not.toContain('task');
  }
  for (const request of requestFor(mock, 'WORK-ALPHA')) expect(toolNames(request)).not.toContain('task');

  // The parent's last request carries the tasks' final replies, not their intermediate messages.
  const parentLast = mock.requests.findLast((r) => JSON.stringify(r.body).includes('Look at both files'))!;
  const sent = JSON.stringify(parentLast.body);
  expect(sent).toContain('Alpha has three lines.');
  expect(sent).toContain('Beta changed.');
  expect(sent).not.toContain('alpha one\\nalpha two'); // the explore task's read result stayed in its own context

  // A card expands to the subagent's transcript with its tool cards.
  const explore = card(page, 't-explore-a');
  await explore.getByTestId('task-expand').click();
  const transcript = explore.getByTestId('task-transcript');
  await expect(transcript).toBeVisible();
  await expect(transcript.locator('[data-testid="tool-call"][data-tool="read"]')).toHaveAttribute('data-status', 'done');
  await expect(transcript).toContainText('Alpha has three lines.');
  await snapshot(page, 'subagents-02-expanded');
  await explore.getByTestId('task-expand').click();
  await expect(transcript).toBeHidden();
});

test('two workers editing the same line: one conflict card, only the clean change applied, then Apply takes the other', async ({ page, mock }) => {
  test.setTimeout(90_000);
  mock.setScript([
    { content: [
      task('t-first', 'worker', 'First rewrite', 'FIRST-REWRITE: make alpha two say FIRST'),
      task('t-second', 'worker', 'Second rewrite', 'SECOND-REWRITE: make alpha two say SECOND'),
    ] },
    sub('FIRST-REWRITE', [call('edit', { path: 'alpha.txt', edits: [{ oldText: 'alpha two', newText: 'alpha FIRST' }] })]),
    sub('FIRST-REWRITE', [text('First done.')]),
    sub('SECOND-REWRITE', [call('edit', { path: 'alpha.txt', edits: [{ oldText: 'alpha two', newText: 'alpha SECOND' }] })]),
    // The second ends well after the first has merged.
    sub('SECOND-REWRITE', [text('Second done.')], { delayMs: 2500 }),
    { when: { lastToolResultContains: 'Second done.' }, content: [text('One of them conflicted.')] },
  ]);
  await openAndConfigure(page, mock);
  await importProject(page);
  await ask(page, 'Rewrite alpha twice');

  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('One of them conflicted.', { timeout: 30_000 });
  await expect(card(page, 't-first')).toHaveAttribute('data-status', 'done');
  const second = card(page, 't-second');
  await expect(second).toHaveAttribute('data-status', 'conflict');
  await expect(page.getByTestId('task-conflict')).toHaveCount(1);
  await expect(second.getByTestId('task-conflict')).toContainText('alpha.txt');
  await snapshot(page, 'subagents-03-conflict');

  // The live workspace holds only the clean worker's change.
  const live = await fileText(page, 'alpha.txt');
  expect(live).toContain('alpha FIRST');
  expect(live).not.toContain('SECOND');

  // The model was told which file conflicted and how to apply it.
  const told = JSON.stringify(mock.requests.at(-1)!.body);
  expect(told).toContain('alpha.txt');
  expect(told).toMatch(/apply/i);

  // Apply from the card: the worker's side wins the conflicting hunk.
  await second.getByTestId('task-apply').click();
  await expect(second).toHaveAttribute('data-status', 'done');
  await expect(second.getByTestId('task-conflict')).toHaveCount(0);
  await expect.poll(() => fileText(page, 'alpha.txt')).toContain('alpha SECOND');
});

test('a reload mid-task shows the task interrupted, with its partial transcript', async ({ page, mock }) => {
  mock.setScript([
    { content: [task('t-slow', 'explore', 'Slow look', 'SLOW-LOOK: read alpha then think a long time')] },
    sub('SLOW-LOOK', [call('read', { path: 'alpha.txt' })]),
    sub('SLOW-LOOK', [text('Still thinking...')], { fault: { type: 'stall', afterFrames: 1 } }),
  ]);
  await openAndConfigure(page, mock);
  await importProject(page);
  await ask(page, 'Take a slow look');
  const slow = card(page, 't-slow');
  await expect(slow).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  await slow.getByTestId('task-expand').click();
  await expect(slow.getByTestId('task-transcript').locator('[data-testid="tool-call"][data-tool="read"]')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  await page.reload();
  const after = card(page, 't-slow');
  await expect(after).toHaveAttribute('data-status', 'aborted', { timeout: 20_000 });
  await expect(after).toContainText(/interrupted/i);
  await after.getByTestId('task-expand').click();
  await expect(after.getByTestId('task-transcript').locator('[data-testid="tool-call"][data-tool="read"]')).toBeVisible();
  await snapshot(page, 'subagents-04-interrupted');
});

test('the session file keeps the tasks: exported, imported in a fresh browser, the cards and transcripts are back', async ({ page, mock, browser, baseURL }) => {
  mock.setScript([
    { content: [task('t-kept', 'explore', 'Count lines', 'COUNT-LINES: how many lines has beta.txt?')] },
    sub('COUNT-LINES', [call('read', { path: 'beta.txt' })]),
    sub('COUNT-LINES', [text('Beta has 3 lines.')]),
    textTurn('It has 3 lines.', { when: { lastToolResultContains: 'Beta has 3 lines.' } }),
  ]);
  await openAndConfigure(page, mock);
  await importProject(page);
  await ask(page, 'Count the lines of beta');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('It has 3 lines.', { timeout: 20_000 });
  await expect(card(page, 't-kept')).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-session').click()]);
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);

  const other = await browser.newContext({ baseURL });
  const page2 = await other.newPage();
  await openAndConfigure(page2, mock);
  await page2.getByTestId('import-session').setInputFiles(file);
  await expect(page2.getByTestId('transfer-result')).toContainText('as a new session');
  const kept = cardByDescription(page2, 'Count lines');
  await expect(kept).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(kept).toHaveAttribute('data-agent', 'explore');
  await kept.getByTestId('task-expand').click();
  await expect(kept.getByTestId('task-transcript')).toContainText('Beta has 3 lines.');
  await expect(kept.getByTestId('task-transcript').locator('[data-testid="tool-call"][data-tool="read"]')).toBeVisible();
  await other.close();
});

test('Settings → Subagents: the workspace\'s definitions listed (a broken one with why), one offered to the model and run, and one at a time when the limit is 1', async ({ page, mock }) => {
  test.setTimeout(90_000);
  const definitions: Record<string, string> = {
    '.agents/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews a file and lists its problems.\ntools: [read, grep]\n---\nYou review code. List problems, nothing else.\n',
    '.claude/agents/broken.md': '---\ndescription: No name here.\n---\nBody.\n',
  };
  const entries: Record<string, Uint8Array> = {};
  for (const [path, text] of Object.entries({ ...FILES, ...definitions })) entries[`project-main/${path}`] = new TextEncoder().encode(text);
  mock.setScript([
    { content: [
      task('t-review', 'reviewer', 'Review alpha', 'REVIEW-ALPHA: review alpha.txt'),
      task('t-look', 'explore', 'Look at beta', 'LOOK-BETA: what is in beta.txt?'),
    ] },
    sub('REVIEW-ALPHA', [text('No problems in alpha.txt.')], { delayMs: 1500 }),
    sub('LOOK-BETA', [text('Beta has three lines.')]),
    { when: { lastToolResultContains: 'Beta has three lines.' }, content: [text('Reviewed and looked.')] },
  ]);
  await openAndConfigure(page, mock);
  await page.getByTestId('import-zip').setInputFiles({ name: 'project-main.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync(entries)) });
  await expect(page.getByTestId('import-result')).toContainText('5 files');

  await page.getByTestId('settings-open').click();
  const settings = page.getByTestId('subagent-settings');
  await settings.scrollIntoViewIfNeeded();
  await expect(settings.locator('[data-testid="agent-definition"][data-name="reviewer"]')).toHaveAttribute('data-state', 'valid');
  const broken = settings.locator('[data-testid="agent-definition"][data-state="invalid"]');
  await expect(broken).toHaveCount(1);
  await expect(broken).toContainText('name');
  await expect(page.getByTestId('subagent-max')).toHaveValue('4');
  await page.getByTestId('subagent-max').fill('1');
  await snapshot(page, 'subagents-05-settings');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();

  await ask(page, 'Review alpha and look at beta');
  // With one at a time, the second task waits while the first (a slow one) runs.
  await expect(card(page, 't-look')).toHaveAttribute('data-status', 'queued', { timeout: 20_000 });
  await expect(card(page, 't-review')).toHaveAttribute('data-status', 'running');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Reviewed and looked.', { timeout: 30_000 });
  await expect(card(page, 't-review')).toHaveAttribute('data-agent', 'reviewer');
  await expect(card(page, 't-review')).toHaveAttribute('data-status', 'done');

  // The task tool told the model about the definition; the reviewer got its own prompt and only its tools.
  const parentFirst = JSON.stringify(mock.requests[0].body);
  expect(parentFirst).toContain('reviewer');
  expect(parentFirst).toContain('Reviews a file and lists its problems.');
  const review = requestFor(mock, 'REVIEW-ALPHA')[0];
  expect(toolNames(review).sort()).toEqual(['grep', 'read']);
  expect(JSON.stringify(review.body)).toContain('You review code. List problems, nothing else.');
});
