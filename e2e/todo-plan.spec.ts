// The agent's todo list and Plan mode against the mock provider, at desktop and phone size: the pinned list follows
// two todo calls live (0/3, then 1/3 with the right states) and is still there after a reload; in Plan mode the
// request offers only the reading tools and todo and the system prompt asks for a plan; Start goes back to the mode
// before Plan mode and sends the go-ahead the person edited.
import type { Page } from '@playwright/test';
import type { RecordedRequest } from './mock-provider/server';
import { expectAccessible } from './accessibility';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const STEPS = ['Read the parser', 'Fix the off-by-one', 'Add a test'];
const list = (...statuses: string[]) => statuses.map((status, i) => ({ content: STEPS[i], status }));

type ChatBody = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
const bodyOf = (request: RecordedRequest) => request.body as ChatBody;
const toolNames = (request: RecordedRequest) => (bodyOf(request).tools ?? []).map((t) => t.function.name).sort();
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
const systemPrompt = (request: RecordedRequest) => textOf(bodyOf(request).messages.find((m) => m.role === 'system')?.content);
const lastUserText = (request: RecordedRequest) => textOf(bodyOf(request).messages.filter((m) => m.role === 'user').at(-1)?.content);
const PLAN_LINE = 'You are in Plan mode: investigate, do not change anything, and end with a plan.';

async function expectTodoStates(page: Page, done: number, statuses: string[]) {
  const pinned = page.getByTestId('todo-list');
  await expect(pinned).toHaveAttribute('data-done', String(done));
  await expect(pinned).toHaveAttribute('data-total', String(statuses.length));
  await expect(pinned).toContainText(`${done}/${statuses.length} done`);
  const items = page.getByTestId('todo-item');
  await expect(items).toHaveCount(statuses.length);
  for (const [i, status] of statuses.entries()) await expect(items.nth(i)).toHaveAttribute('data-status', status);
}

/** Everything in the top bar is inside the screen, on its one row. */
async function expectTopBarFits(page: Page, width: number) {
  const topbar = page.locator('header.topbar');
  const bar = (await topbar.boundingBox())!;
  expect(bar.height).toBe(46);
  let rightmost = 0;
  for (const item of await topbar.locator('> *:visible').all()) {
    const b = (await item.boundingBox())!;
    expect(b.x + b.width, await item.evaluate((el) => el.outerHTML.slice(0, 80))).toBeLessThanOrEqual(width);
    expect(b.y + b.height).toBeLessThanOrEqual(bar.y + bar.height);
    rightmost = Math.max(rightmost, b.x + b.width);
  }
  console.log(`top bar at ${width} px in Plan mode: its last item ends at ${rightmost.toFixed(1)} px`);
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('the pinned todo list follows two todo calls live and survives a reload', async ({ page, mock }) => {
      mock.setScript([
        callTurn('todo', { todos: list('pending', 'pending', 'pending') }),
        // Slow enough to see the first list before the second arrives, also with a neighbour flow loading the machine.
        callTurn('todo', { todos: list('completed', 'in_progress', 'pending') }, { delayMs: 4000 }),
        textTurn('The parser is read; fixing the off-by-one next.', { delayMs: 800 }),
      ]);
      await openAndConfigure(page, mock);
      await ask(page, 'Fix the parser bug, with a test');

      await expectTodoStates(page, 0, ['pending', 'pending', 'pending']);
      await expect(page.locator('[data-testid="tool-call"][data-tool="todo"]')).toHaveCount(1);
      await snapshot(page, `todo-0-of-3-${size.width}`);
      await expectTodoStates(page, 1, ['completed', 'in_progress', 'pending']);
      await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('fixing the off-by-one next');
      const cards = page.locator('[data-testid="tool-call"][data-tool="todo"]');
      await expect(cards).toHaveCount(2);
      await expect(cards.nth(1)).toHaveAttribute('data-status', 'done');
      await expect(cards.nth(1)).toContainText('1/3 done');
      // The model was offered the tool, and its result told it the list.
      expect(toolNames(mock.requests[0])).toContain('todo');
      expect(JSON.stringify(mock.requests[2].body)).toContain('Todo list updated (1/3 done)');

      // Collapsed, the list keeps its count and shows the step in progress.
      await page.getByTestId('todo-toggle').click();
      await expect(page.getByTestId('todo-item')).toHaveCount(0);
      await expect(page.getByTestId('todo-list')).toContainText('Fix the off-by-one');
      await page.getByTestId('todo-toggle').click();
      await snapshot(page, `todo-1-of-3-${size.width}`);
      await expectAccessible(page, `todo-list-${size.width}`);

      await page.getByTestId('save-status').waitFor({ state: 'attached' });
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
      await page.reload();
      await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
      await expectTodoStates(page, 1, ['completed', 'in_progress', 'pending']);
      await expect(page.getByTestId('todo-item').nth(1)).toContainText('Fix the off-by-one');
    });

    test('Plan mode offers only the reading tools and todo, asks for a plan, and Start goes back and sends the go-ahead', async ({ page, mock }) => {
      mock.setScript([
        callTurn('ls', {}),
        textTurn('## Plan\n\n1. Add README.md with a short introduction.\n2. Link it from package.json.'),
        { when: { lastUserContains: 'Go ahead with the plan' }, content: [{ type: 'text', text: 'Starting on step 1.' }] },
      ]);
      await openAndConfigure(page, mock);
      // The person was in Ask mode before Plan mode: Start must go back there, not to the default.
      await page.getByTestId('topbar-approval-mode-ask').click();
      await page.getByTestId('topbar-approval-mode-plan').click();
      await expect(page.getByTestId('topbar-approval-mode-plan')).toHaveAttribute('aria-checked', 'true');
      await expectTopBarFits(page, size.width);
      await page.getByTestId('settings-open').click();
      await expect(page.getByTestId('approval-mode-plan')).toBeChecked();
      await page.getByRole('button', { name: 'Cancel' }).click();

      await ask(page, 'How would you add a README?');
      const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
      await expect(answer).toContainText('Link it from package.json', { timeout: 20_000 });
      for (const request of mock.requests) {
        expect(toolNames(request)).toEqual(['find', 'grep', 'ls', 'read', 'todo']);
        expect(systemPrompt(request)).toContain(PLAN_LINE);
      }

      const start = page.getByTestId('plan-start');
      await expect(start).toBeVisible();
      await expect(page.getByTestId('plan-start-text')).toHaveValue('Go ahead with the plan.');
      await expect(page.locator('.plan-start')).toContainText('switches back to Ask');
      await snapshot(page, `plan-start-${size.width}`);
      await expectAccessible(page, `plan-start-${size.width}`);
      await page.getByTestId('plan-start-text').fill('Go ahead with the plan, README first.');
      await start.click();

      await expect(page.getByTestId('topbar-approval-mode-ask')).toHaveAttribute('aria-checked', 'true');
      await expect(answer).toContainText('Starting on step 1.');
      await expect(page.getByTestId('plan-start')).toBeHidden();
      const after = mock.requests.at(-1)!;
      expect(lastUserText(after)).toBe('Go ahead with the plan, README first.');
      expect(toolNames(after)).toEqual(['bash', 'edit', 'read', 'task', 'todo', 'write']); // the default tools again, subagents' task among them
      expect(systemPrompt(after)).not.toContain(PLAN_LINE);
      await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('README first');
    });
  });
}
