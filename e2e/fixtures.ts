// Playwright fixtures for the app's flows: a mock provider per test, and helpers that drive settings the way a
// person does (through the settings dialog, by data-testid).
import { test as base, expect, type Page } from '@playwright/test';
import { startMockProvider, type MockProvider } from './mock-provider/server';
import type { MockTurn } from './mock-provider/script';

export { expect };
export type { MockTurn };

export const test = base.extend<{ mock: MockProvider }>({
  mock: async ({}, use) => {
    const mock = await startMockProvider({ port: 0 });
    await use(mock);
    await mock.close();
  },
});

export type ProviderSetup = {
  provider?: 'openai-compatible' | 'anthropic' | 'openai' | 'google';
  approvalMode?: 'auto' | 'ask' | 'read-only';
  theme?: 'light' | 'dark' | 'system';
  /** The npm registry setting (embedded runtime). */
  npmRegistry?: string;
  /** Where the app is (default: the suite's preview server). */
  url?: string;
};

/** Opens the app, waits for the sandbox, and sets the provider to the mock through the settings dialog. */
export async function openAndConfigure(page: Page, mock: MockProvider, setup: ProviderSetup = {}): Promise<void> {
  await page.goto(setup.url ?? '/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByTestId('settings-open').click();
  const provider = setup.provider ?? 'openai-compatible';
  await page.getByTestId('provider-select').selectOption(provider);
  // Each API's base URL as its SDK expects it: the OpenAI ones end in /v1, Anthropic's and Gemini's are the root.
  const rootBaseUrl = provider === 'anthropic' || provider === 'google';
  await page.getByTestId('base-url').fill(rootBaseUrl ? mock.url : `${mock.url}/v1`);
  await page.getByTestId('api-key').fill('sk-test-not-a-real-key');
  const modelFor = { anthropic: 'claude-sonnet-5-5', openai: 'gpt-5-mini', google: 'gemini-2.5-flash', 'openai-compatible': 'mock-model' };
  await page.getByTestId('model-input').fill(modelFor[provider]);
  if (setup.approvalMode) await page.getByTestId(`approval-mode-${setup.approvalMode}`).check();
  if (setup.theme) await page.getByTestId('theme-select').selectOption(setup.theme);
  if (setup.npmRegistry) await page.getByTestId('npm-registry').fill(setup.npmRegistry);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();
}

/** Types a prompt and sends it with Enter. */
export async function ask(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('prompt-input');
  await input.fill(text);
  await input.press('Enter');
}

/** Saves a screenshot as a test artifact. */
export async function snapshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

/** A tool call turn. */
export function callTurn(name: string, args: Record<string, unknown>, extra: Partial<MockTurn> = {}): MockTurn {
  return { content: [{ type: 'toolCall', name, arguments: args }], ...extra };
}

/** A plain text turn. */
export function textTurn(text: string, extra: Partial<MockTurn> = {}): MockTurn {
  return { content: [{ type: 'text', text }], ...extra };
}
