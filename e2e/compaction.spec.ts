// Long sessions against the mock provider with a 16k-token context window: a 60-turn run whose tool outputs total
// well over 200k tokens finishes unattended with every request under the window, dividers in the transcript, and the
// summary still first after a reload; a context overflow recovered by one compaction and a retry, and a second one
// by "compact harder"; a failed summary, /compact cancelled with Esc, then with a focus; a reload mid-stream shows
// the interrupted reply, and Continue finishes the turn.
import type { Page } from '@playwright/test';
import type { RecordedRequest } from './mock-provider/server';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn, type MockTurn } from './fixtures';

const WINDOW = 16_384;
const SUMMARY_PREFIX = 'The conversation before this point was compacted into this summary:';
const assistants = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]');

/** The mock with a 16k window for mock-model, and Conch told the same in settings (an unknown model assumes 128k). */
async function openWithSmallWindow(page: Page, mock: import('./mock-provider/server').MockProvider): Promise<void> {
  mock.setContextWindows({ 'mock-model': WINDOW });
  await openAndConfigure(page, mock);
  await page.getByTestId('settings-open').click();
  const window = page.getByTestId('context-window');
  await expect(window).toHaveValue('128000');
  await expect(page.getByTestId('model-limits-source')).toContainText('assumes a 128k-token window');
  await window.fill(String(WINDOW));
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();
}

/** The chat-completions messages of a recorded request (system prompt first). */
const chatMessages = (request: RecordedRequest) => (request.body as { messages: { role: string; content: unknown }[] }).messages;
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: string }) => part.text ?? '').join('') : '';
/** The first message after the system prompt: where a compacted view starts. */
const firstTurnText = (request: RecordedRequest) => textOf(chatMessages(request).find((m) => m.role !== 'system')?.content);
const agentRequests = (mock: { requests: RecordedRequest[] }) => mock.requests.filter((r) => !r.summary);
const summaryRequests = (mock: { requests: RecordedRequest[] }) => mock.requests.filter((r) => r.summary);

test('a 60-turn session with 240k tokens of tool output runs to its end in a 16k window, and resumes from the summary after a reload', async ({ page, mock }) => {
  test.setTimeout(150_000);
  // Each call prints 2,000 lines of 8 characters: 16,000 characters, about 4,000 tokens, all kept by the bash tool.
  mock.setScript([
    callTurn('bash', { command: 'seq 1000001 1002000' }, { times: 60 }),
    textTurn('All 60 steps are done.'),
  ]);
  await openWithSmallWindow(page, mock);
  await expect(page.getByTestId('context-meter')).toContainText('/ 16k');

  const started = Date.now();
  await ask(page, 'Run the 60 steps');
  await expect(assistants(page).last()).toContainText('All 60 steps are done.', { timeout: 120_000 });
  console.log(`60 turns: ${((Date.now() - started) / 1000).toFixed(1)} s, ${agentRequests(mock).length} agent and ${summaryRequests(mock).length} summary requests`);
  await snapshot(page, 'compaction-60-turns');

  // Every request fitted the window: none was refused, and the largest one is reported.
  const sizes = mock.requests.map((r) => r.tokens);
  console.log(`largest request: ${Math.max(...sizes)} tokens of ${WINDOW}`);
  for (const request of mock.requests) {
    expect(request.status).toBe(200);
    expect(request.tokens).toBeLessThan(WINDOW);
  }
  const agent = agentRequests(mock);
  expect(agent).toHaveLength(61);
  // The tool outputs that went through: each request after the first ends with the newest one.
  const outputChars = agent.slice(1).reduce((sum, r) => sum + textOf(chatMessages(r).at(-1)?.content).length, 0);
  expect(outputChars / 4).toBeGreaterThan(200_000);
  expect(summaryRequests(mock).length).toBeGreaterThan(10);

  // Dividers mark the compactions; one opens to its summary. The full transcript is still there to scroll.
  const divider = page.getByTestId('compaction').last();
  await expect(divider).toContainText(/Context compacted: [\d.]+k → [\d.]+k tokens/);
  await divider.locator('summary').click();
  await expect(divider).toContainText('Mock summary');
  await snapshot(page, 'compaction-divider-open');
  await expect(page.getByTestId('context-meter')).toHaveAttribute('data-state', 'ok');

  // After a reload the model's view still starts from the latest summary.
  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('compaction').last()).toBeAttached();
  mock.setScript([textTurn('We finished all 60 steps.')]);
  await ask(page, 'Where are we?');
  await expect(assistants(page).last()).toContainText('We finished all 60 steps.');
  const after = agentRequests(mock).at(-1)!;
  expect(firstTurnText(after).startsWith(SUMMARY_PREFIX)).toBe(true);
  expect(textOf(chatMessages(after).at(-1)?.content)).toBe('Where are we?');
});

test('an overflow is recovered by one compaction and a retry; a second one offers compact harder; a failed summary changes nothing; /compact cancels with Esc and takes a focus', async ({ page, mock }) => {
  const slowSummary: MockTurn = { when: { summary: true }, content: [{ type: 'text', text: '## Goal\nNever used' }], delayMs: 30_000 };
  mock.setScript([textTurn('The first answer, about the API design.')]);
  await openWithSmallWindow(page, mock);
  await ask(page, 'Tell me about the API');
  await expect(assistants(page).last()).toContainText('The first answer');

  // The provider refuses the next request as too long: Conch compacts once and sends it again by itself.
  mock.setScript([textTurn('Answered after compacting.', { fault: { type: 'contextTooLong', times: 1 } })]);
  await ask(page, 'And the storage?');
  await expect(assistants(page).last()).toContainText('Answered after compacting.');
  await expect(page.getByTestId('compaction')).toHaveCount(1);
  await expect(page.getByTestId('provider-error')).toHaveCount(0);
  const [refused, summary, retried] = mock.requests.slice(-3);
  expect(refused.status).toBe(400);
  expect(summary.summary).toBe(true);
  expect(firstTurnText(retried).startsWith(SUMMARY_PREFIX)).toBe(true);

  // Refused twice: the error says so, with a button to compact harder, which sends the request again.
  mock.setScript([textTurn('Fits after compacting harder.', { fault: { type: 'contextTooLong', times: 2 } })]);
  await ask(page, 'And the tests?');
  await expect(page.getByTestId('compact-harder')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('provider-error')).toContainText("no longer fits the model's context window");
  await expect(page.getByTestId('continue')).toHaveCount(0);
  await snapshot(page, 'compaction-second-overflow');
  await page.getByTestId('compact-harder').click();
  await expect(assistants(page).last()).toContainText('Fits after compacting harder.');
  await expect(page.getByTestId('compaction')).toHaveCount(3);

  // A summary request that fails leaves the session as it was, and says why.
  mock.setScript([{ when: { summary: true }, content: [{ type: 'text', text: 'unused' }], fault: { type: 'status', status: 400, message: 'summary refused' } }]);
  await page.getByTestId('compact-now').click();
  await expect(page.getByTestId('compaction-notice')).toContainText(/summary refused.*unchanged/);
  await expect(page.getByTestId('compaction')).toHaveCount(3);

  // /compact, cancelled with Esc while the summary is being written: nothing changes, and it says so.
  const before = summaryRequests(mock).length;
  mock.setScript([slowSummary]);
  await ask(page, '/compact');
  await expect(page.getByTestId('compacting')).toBeVisible();
  await expect.poll(() => summaryRequests(mock).length).toBe(before + 1);
  await page.getByTestId('prompt-input').press('Escape');
  await expect(page.getByTestId('compaction-notice')).toContainText('cancelled; nothing changed');
  await expect(page.getByTestId('compaction')).toHaveCount(3);
  await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('And the tests?');

  // /compact with a focus: the focus goes into the summary request, and a divider marks it.
  mock.setScript([]);
  await ask(page, '/compact keep the API design');
  await expect(page.getByTestId('compaction')).toHaveCount(4);
  expect(JSON.stringify(summaryRequests(mock).at(-1)!.body)).toContain('keep the API design');
  await snapshot(page, 'compaction-manual');
});

/** Whether the open session's streaming reply has been saved to its draft slot. */
function draftSaved(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve, reject) => {
        const open = indexedDB.open('conch');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const keys = db.transaction('entries').objectStore('entries').getAllKeys();
          keys.onsuccess = () => {
            db.close();
            resolve(keys.result.some((key) => String(key).endsWith('/draft')));
          };
        };
      }),
  );
}

test('a reload mid-stream shows the interrupted reply, and Continue finishes the turn', async ({ page, mock }) => {
  mock.setScript([
    { content: [{ type: 'text', text: 'Here is the first half of the plan, and', deltas: ['Here is the first ', 'half of the plan, and', ' never more'] }], fault: { type: 'stall', afterFrames: 3 } },
    textTurn('…the second half: ship it.'),
  ]);
  await openAndConfigure(page, mock);
  await ask(page, 'Plan the release');
  await expect(assistants(page).last()).toContainText('half of the plan');
  // The draft is written within two seconds of the first text, never on every delta.
  await expect.poll(() => draftSaved(page), { timeout: 10_000 }).toBe(true);

  await page.reload();
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  const interrupted = page.getByTestId('interrupted');
  await expect(interrupted).toHaveText('Interrupted — the page was closed while the reply was streaming');
  await expect(assistants(page).last()).toContainText('Here is the first half of the plan');
  await expect(page.getByTestId('retry')).toHaveCount(0);
  await snapshot(page, 'interrupted-reply');

  await page.getByTestId('continue').click();
  await expect(assistants(page).last()).toContainText('the second half: ship it.');
  await expect(page.getByTestId('continue')).toHaveCount(0);
  const request = agentRequests(mock).at(-1)!;
  const messages = chatMessages(request);
  expect(textOf(messages.at(-2)?.content)).toContain('Here is the first half of the plan');
  expect(messages.at(-1)?.role).toBe('user');
});
