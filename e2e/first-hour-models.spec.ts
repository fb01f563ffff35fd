// The first thing a new person touches, at desktop size: the model chip before any provider is set, the catalog's
// default (never a deprecated model), each provider and preset bringing its own model and base URL and getting back
// what was typed for it, the live model list of all four APIs from the mock provider, "Test connection" with its four
// outcomes, and a model of unknown price costing "—" instead of $0.000.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectAccessible } from './accessibility';
import { ask, expect, snapshot, test, textTurn } from './fixtures';

test.use({ viewport: { width: 1280, height: 800 } });

/** A base URL where nothing listens (a server started and closed again). */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

test('models and providers: defaults, switching, live lists, test connection, unknown price', async ({ page, mock }) => {
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(page.getByTestId('model-label')).toHaveText('Choose a model');
  await snapshot(page, 'fh-01-welcome');
  await expectAccessible(page, 'welcome');

  await page.getByTestId('settings-open').click();
  const provider = page.getByTestId('provider-select');
  const baseUrl = page.getByTestId('base-url');
  const model = page.getByTestId('model-input');
  const status = page.getByTestId('model-list-status');
  const details = page.getByTestId('model-details');
  const option = (id: string) => page.locator(`#model-suggestions option[value="${id}"]`);
  await expect(provider).toHaveValue('anthropic');
  await expect(model).toHaveValue('claude-sonnet-5-5');
  await expect(details).toContainText('$2 in / $10 out per M tokens');
  await expect(details).not.toHaveAttribute('data-deprecated', 'true');
  await expect(option('claude-sonnet-4-5')).toHaveAttribute('data-deprecated', 'true');
  await expect(status).toContainText('Enter the key');
  await snapshot(page, 'fh-02-settings');
  await expectAccessible(page, 'settings');

  // Each provider and preset brings its own model and base URL; what was typed for one comes back with it.
  await baseUrl.fill(mock.url);
  await provider.selectOption('openai');
  await expect(model).toHaveValue('gpt-5.6-terra');
  await expect(baseUrl).toHaveValue('');
  await provider.selectOption('openai-compatible');
  await expect(model).toHaveValue('');
  await page.getByTestId('preset-select').selectOption('ollama');
  await expect(baseUrl).toHaveValue('http://localhost:11434/v1');
  await page.getByTestId('preset-select').selectOption('openrouter');
  await expect(baseUrl).toHaveValue('https://openrouter.ai/api/v1');
  await expect(model).toHaveValue('openrouter/auto');
  await provider.selectOption('anthropic');
  await expect(baseUrl).toHaveValue(mock.url);
  await expect(model).toHaveValue('claude-sonnet-5-5');

  // Anthropic's list, fetched once the key is in: limits as reported, deprecated models marked.
  await page.getByTestId('api-key').fill('sk-test-not-a-real-key');
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(status).toContainText('6 models available');
  expect(mock.listRequests.filter((r) => r.api === 'anthropic')).toHaveLength(1);
  await expect(option('claude-lab-7')).toHaveCount(1);
  await expect(option('claude-opus-4-5')).toHaveAttribute('data-deprecated', 'true');
  await expect(option('claude-opus-4-5')).toContainText('deprecated, ends 2027-01-22');
  await model.fill('claude-sonnet-4-5');
  await expect(details).toHaveAttribute('data-deprecated', 'true');
  await expect(details).toContainText('Retired (end of life 2026-11-30)');
  await model.fill('claude-lab-7');
  await expect(details).toContainText('640K context · 96K output (as the provider reports)');
  await expect(page.getByTestId('model-price')).toContainText('price unknown');

  // Test connection: its four outcomes.
  const result = page.getByTestId('connection-result');
  mock.setScript([textTurn('OK')]);
  await page.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-kind', 'ok');
  await expect(result).toContainText(/answered in \d/);
  mock.setScript([{ ...textTurn('never'), fault: { type: 'badKey' } }]);
  await page.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-kind', 'auth');
  await expect(result).toContainText('The key was rejected');
  mock.setScript([{ ...textTurn('never'), fault: { type: 'modelNotFound' } }]);
  await page.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-kind', 'model_not_found');
  await expect(result).toContainText('Model not found');
  await snapshot(page, 'fh-03-test-connection');
  await provider.selectOption('openai-compatible');
  await page.getByTestId('preset-select').selectOption('custom');
  await baseUrl.fill(`${await closedUrl()}/v1`);
  await model.fill('qwen3-coder');
  await page.getByTestId('test-connection').click();
  await expect(result).toHaveAttribute('data-kind', 'network');
  await expect(result).toContainText('Access-Control-Allow-Origin');

  // The other three lists, each in its own wire format (the mock, like the hosted APIs, lists only for a key).
  await baseUrl.fill(`${mock.url}/v1`);
  await page.getByTestId('api-key').fill('endpoint-key');
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(option('mock-model')).toHaveCount(1);
  await expect(option('text-embedding-3-small')).toHaveCount(0);
  await provider.selectOption('google');
  await expect(model).toHaveValue('gemini-3.5-flash');
  await baseUrl.fill(mock.url);
  await page.getByTestId('api-key').fill('gemini-key');
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(option('gemini-lab-exp')).toHaveCount(1);
  await expect(option('text-embedding-004')).toHaveCount(0);
  await provider.selectOption('openai');
  await baseUrl.fill(`${mock.url}/v1`);
  await page.getByTestId('api-key').fill('openai-key');
  await expect(status).toHaveAttribute('data-state', 'ready');
  await expect(option('gpt-5.6-luna')).toHaveCount(1);
  expect(new Set(mock.listRequests.map((r) => r.path.split('?')[0]))).toEqual(new Set(['/v1/models', '/v1beta/models']));
  expect(new Set(mock.listRequests.map((r) => r.api))).toEqual(new Set(['anthropic', 'openai', 'gemini']));

  // Back to Anthropic: the key, base URL and model typed there return; a model of unknown price costs "—".
  await provider.selectOption('anthropic');
  await expect(model).toHaveValue('claude-lab-7');
  await expect(page.getByTestId('api-key')).toHaveValue('sk-test-not-a-real-key');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('model-label')).toHaveText('claude-lab-7');
  mock.setScript([textTurn('Hello from a model without a price.', { usage: { input: 1200, output: 30 } })]);
  await ask(page, 'hello');
  await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('without a price');
  await expect(page.getByTestId('session-usage')).toContainText('1.2k in · 30 out · —');
  await expect(page.getByTestId('session-usage')).not.toContainText('$');
});
