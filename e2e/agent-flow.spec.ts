// The core flow a person goes through: first visit, provider settings, a prompt that makes the agent write, read,
// edit and run a command, each as a card with its state; then the same with the Anthropic wire format.
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

test('first run: settings, then a prompt that writes, reads, edits and runs a command', async ({ page, mock }) => {
  mock.setScript([
    { content: [{ type: 'text', text: 'I will create the file first.' }, { type: 'toolCall', name: 'write', arguments: { path: 'notes.txt', content: 'hello world\n' } }] },
    callTurn('read', { path: 'notes.txt' }),
    callTurn('edit', { path: 'notes.txt', edits: [{ oldText: 'hello world', newText: 'goodbye world' }] }),
    callTurn('bash', { command: 'cat notes.txt && echo "exit was $?"' }),
    textTurn('## Done\n\nThe file now says **goodbye world**:\n\n```bash\ncat notes.txt\n```\n\n| step | tool |\n|---|---|\n| 1 | write |\n| 2 | edit |'),
  ]);

  await page.goto('/');
  await expect(page.getByText('Welcome to Conch')).toBeVisible();
  await snapshot(page, '01-welcome');

  await openAndConfigure(page, mock);
  await ask(page, 'Create notes.txt, then change hello to goodbye and show it');

  await expect(page.getByTestId('message').filter({ hasText: 'Create notes.txt' })).toHaveAttribute('data-role', 'user');
  const cards = page.getByTestId('tool-call');
  await expect(cards).toHaveCount(4, { timeout: 20_000 });
  await expect(page.locator('[data-testid="tool-call"][data-tool="write"]')).toHaveAttribute('data-status', 'done');
  await expect(page.locator('[data-testid="tool-call"][data-tool="write"]')).toContainText('notes.txt');
  await expect(page.locator('[data-testid="tool-call"][data-tool="read"]')).toHaveAttribute('data-status', 'done');
  const edit = page.locator('[data-testid="tool-call"][data-tool="edit"]');
  await expect(edit).toHaveAttribute('data-status', 'done');
  await expect(edit.locator('.line.del')).toContainText('hello world');
  await expect(edit.locator('.line.add')).toContainText('goodbye world');
  const bash = page.locator('[data-testid="tool-call"][data-tool="bash"]');
  await expect(bash).toHaveAttribute('data-status', 'done');
  await expect(bash).toContainText('cat notes.txt');
  await expect(bash).toContainText('goodbye world');

  const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
  await expect(answer.locator('h2')).toHaveText('Done');
  await expect(answer.locator('strong')).toHaveText('goodbye world');
  await expect(answer.locator('table td').first()).toHaveText('1');
  await expect(page.getByTestId('send')).toBeVisible();
  await expect(page.getByTestId('stop')).toBeHidden();

  // The workspace shows the file the agent made; opening it shows the edited text.
  await expect(page.getByTestId('file-tree')).toContainText('notes.txt');
  await page.getByTestId('file-tree').getByText('notes.txt').click();
  await expect(page.getByTestId('file-viewer').locator('.cm-content')).toContainText('goodbye world');

  // Tokens and cost of the session are shown; the request carried the system prompt and the tools.
  await expect(page.getByTestId('session-usage')).toContainText('in');
  const first = mock.requests[0].body as { messages: { role: string; content: unknown }[]; tools: unknown[] };
  expect(JSON.stringify(first.messages[0])).toContain('embedded sandbox');
  expect(first.tools.length).toBe(6); // read, bash, edit, write, todo and task
  await snapshot(page, '02-flow-done-light');

  // The same screen in the dark theme.
  await page.getByTestId('settings-open').click();
  await page.getByTestId('theme-select').selectOption('dark');
  await page.getByTestId('settings-save').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await snapshot(page, '03-flow-done-dark');
});

test('the Anthropic wire format works end to end and the session is listed', async ({ page, mock }) => {
  mock.setScript([callTurn('bash', { command: 'echo from-anthropic' }), textTurn('All good.')]);
  await openAndConfigure(page, mock, { provider: 'anthropic' });
  await ask(page, 'Say hello from the shell');
  await expect(page.locator('[data-testid="tool-call"][data-tool="bash"]')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('All good.');
  expect(mock.requests[0].api).toBe('anthropic');
  const headers = mock.requests[0].headers;
  expect(`${headers['x-api-key'] ?? ''} ${headers.authorization ?? ''}`).toContain('sk-test-not-a-real-key');

  await expect(page.getByTestId('session-item')).toHaveCount(1);
  await expect(page.getByTestId('session-item').first()).toContainText('Say hello from the shell');
  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await expect(page.getByTestId('message')).toHaveCount(0);
  await page.getByTestId('session-item').nth(1).click();
  await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('All good.');
});

for (const provider of ['openai', 'google'] as const) {
  test(`the ${provider} wire format works end to end from the settings dialog`, async ({ page, mock }) => {
    mock.setScript([callTurn('bash', { command: `echo from-${provider}` }), textTurn(`Done via ${provider}.`)]);
    await openAndConfigure(page, mock, { provider });
    await ask(page, 'Say hello from the shell');
    const card = page.locator('[data-testid="tool-call"][data-tool="bash"]');
    await expect(card).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
    await expect(card).toContainText(`from-${provider}`);
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText(`Done via ${provider}.`);
    expect(mock.requests.map((r) => r.api)).toEqual(provider === 'openai' ? ['openai-responses', 'openai-responses'] : ['gemini', 'gemini']);
    // The second request carried the tool's result back in that API's own shape.
    expect(JSON.stringify(mock.requests[1].body)).toContain(`from-${provider}`);
  });
}
