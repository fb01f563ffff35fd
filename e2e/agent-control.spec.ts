// A person in control: approvals in Ask mode, stopping a long command, queueing a message while the agent works,
// retrying after a provider error, and model output that tries to run script.
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

const card = (page: import('@playwright/test').Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);

test('Ask mode: allow runs the command, deny blocks it and the model is told', async ({ page, mock }) => {
  mock.setScript([
    callTurn('bash', { command: 'echo allowed > allowed.txt && echo wrote it' }),
    callTurn('write', { path: 'denied.txt', content: 'nope' }),
    textTurn('Understood, I will not write that file.'),
  ]);
  await openAndConfigure(page, mock, { approvalMode: 'ask' });
  await ask(page, 'Write two files');

  const bash = card(page, 'bash');
  await expect(page.getByTestId('approval-allow')).toBeVisible({ timeout: 20_000 });
  await expect(bash).toHaveAttribute('data-status', 'pending');
  await expect(bash).toContainText('echo allowed > allowed.txt');
  await snapshot(page, '10-approval');
  await page.getByTestId('approval-allow').click();
  await expect(bash).toHaveAttribute('data-status', 'done');
  await expect(bash).toContainText('wrote it');

  const write = card(page, 'write');
  await expect(write.getByTestId('approval-deny')).toBeVisible();
  await expect(write).toContainText('denied.txt');
  await write.getByTestId('approval-deny').click();
  await expect(write).toHaveAttribute('data-status', 'blocked');
  await expect(write).toContainText('denied');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Understood');

  const last = JSON.stringify(mock.requests[mock.requests.length - 1].body);
  expect(last).toContain('The person denied this write call');
  await expect(page.getByTestId('file-tree')).toContainText('allowed.txt');
  await expect(page.getByTestId('file-tree')).not.toContainText('denied.txt');
});

test('Stop during a long command gives it an aborted result', async ({ page, mock }) => {
  mock.setScript([callTurn('bash', { command: 'echo started; sleep 30; echo finished' }), textTurn('never reached')]);
  await openAndConfigure(page, mock);
  await ask(page, 'Run the long job');
  const bash = card(page, 'bash');
  await expect(bash).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  await expect(page.getByTestId('stop')).toBeVisible();
  await snapshot(page, '11-running');
  await page.getByTestId('stop').click();
  await expect(bash).toHaveAttribute('data-status', 'error', { timeout: 10_000 });
  await expect(bash).toContainText(/aborted/i);
  await expect(bash.locator('pre.output')).not.toContainText('finished');
  await expect(page.getByTestId('stop')).toBeHidden();
  expect(mock.requests.length).toBe(1);
});

test('Esc stops a streaming reply', async ({ page, mock }) => {
  mock.setScript([{ content: [{ type: 'text', text: 'This reply stalls halfway through its sentence and' }], fault: { type: 'stall', afterFrames: 3 } }]);
  await openAndConfigure(page, mock);
  await ask(page, 'Talk slowly');
  await expect(page.getByTestId('stop')).toBeVisible();
  await page.getByTestId('prompt-input').press('Escape');
  await expect(page.getByTestId('stop')).toBeHidden({ timeout: 10_000 });
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Stopped');
});

test('a message sent while the agent works is queued and delivered after the tool batch', async ({ page, mock }) => {
  mock.setScript([
    // Long enough that the follow-up is typed while it runs, even on a loaded machine.
    callTurn('bash', { command: 'sleep 5; echo built' }),
    { when: { lastUserContains: 'also count the files' }, content: [{ type: 'text', text: 'Got your follow-up: counting files next.' }] },
  ]);
  await openAndConfigure(page, mock);
  await ask(page, 'Build it');
  await expect(card(page, 'bash')).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  await ask(page, 'also count the files');
  await expect(page.getByTestId('queued-message')).toContainText('also count the files');
  await snapshot(page, '12-queued');
  await expect(card(page, 'bash')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(page.getByTestId('queued-message')).toHaveCount(0);
  const users = page.locator('[data-testid="message"][data-role="user"]');
  await expect(users).toHaveCount(2);
  await expect(users.last()).toContainText('also count the files');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Got your follow-up');
  // Delivered in the same run, right after the tool result.
  const second = JSON.stringify(mock.requests[1].body);
  expect(second.indexOf('built')).toBeLessThan(second.indexOf('also count the files'));
});

test('a provider 500 shows the error with Retry, and Retry continues', async ({ page, mock }) => {
  mock.setScript([textTurn('Recovered after the retry.', { fault: { type: 'status', status: 500, retryAfter: '120', message: 'upstream exploded' } })]);
  await openAndConfigure(page, mock);
  await ask(page, 'Hello?');
  const error = page.getByTestId('provider-error');
  await expect(error).toBeVisible({ timeout: 20_000 });
  await expect(error).toContainText(/500|server|exploded/i);
  await snapshot(page, '13-provider-error');
  await error.getByTestId('retry').click();
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Recovered after the retry.');
  await expect(page.getByTestId('retry')).toHaveCount(0);
  // The retried request is the same conversation: one user message, no failed reply.
  const body = mock.requests[mock.requests.length - 1].body as { messages: { role: string }[] };
  expect(body.messages.filter((m) => m.role === 'user')).toHaveLength(1);
  expect(body.messages.filter((m) => m.role === 'assistant')).toHaveLength(0);
});

test('a rejected key leads to settings', async ({ page, mock }) => {
  mock.setScript([textTurn('unused', { fault: { type: 'status', status: 401, message: 'invalid x-api-key' } })]);
  await openAndConfigure(page, mock);
  await ask(page, 'Hi');
  await expect(page.getByTestId('provider-error')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('error-open-settings').click();
  await expect(page.getByTestId('api-key')).toBeVisible();
});

test('markdown with an XSS payload renders inert', async ({ page, mock }) => {
  const payload = [
    '# Totally harmless',
    '<img src=x onerror="window.__xss = 1">',
    '<script>window.__xss = 2</script>',
    '[click me](javascript:window.__xss=3)',
    '<a href="javascript:window.__xss=4">raw link</a>',
    '<svg onload="window.__xss=5"><circle r="5"/></svg>',
    '<iframe src="javascript:window.__xss=6"></iframe>',
    '<div style="background:url(https://example.invalid/track.png)" onclick="window.__xss=7">styled</div>',
    '![remote](https://example.invalid/pixel.png)',
    '<details open ontoggle="window.__xss=8"><summary>s</summary>x</details>',
  ].join('\n\n');
  mock.setScript([textTurn(payload)]);
  let dialogs = 0;
  page.on('dialog', (d) => {
    dialogs++;
    void d.dismiss();
  });
  const remote: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('example.invalid')) remote.push(r.url());
  });
  await openAndConfigure(page, mock);
  await ask(page, 'Show me something');
  const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expect(answer.locator('h1')).toHaveText('Totally harmless', { timeout: 20_000 });
  await answer.getByText('click me').click();
  await answer.getByText('styled').click();
  await page.waitForTimeout(300);

  expect(dialogs).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await answer.locator('script, iframe, img, svg').count()).toBe(0);
  expect(await answer.locator('[onerror], [onclick], [onload], [ontoggle], [style]').count()).toBe(0);
  for (const href of await answer.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))) {
    expect(href.toLowerCase()).not.toContain('javascript:');
  }
  const rels = await answer.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('rel')));
  for (const rel of rels) expect(rel).toBe('noopener noreferrer');
  expect(remote).toEqual([]);
  await snapshot(page, '14-xss-inert');
});
