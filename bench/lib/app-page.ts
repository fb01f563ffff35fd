// Driving the app page the way a person does (by data-testid), for benches that run outside Playwright Test.
import type { Page } from '@playwright/test';

/** Waits for the sandbox, then points the app at the mock provider (OpenAI-compatible) through the settings dialog. */
export async function configureMockProvider(page: Page, mockUrl: string): Promise<void> {
  await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
  await page.getByTestId('settings-open').click();
  await page.getByTestId('provider-select').selectOption('openai-compatible');
  await page.getByTestId('base-url').fill(`${mockUrl}/v1`);
  await page.getByTestId('api-key').fill('sk-bench-not-a-real-key');
  await page.getByTestId('model-input').fill('mock-model');
  await page.getByTestId('settings-save').click();
  await page.getByTestId('settings-save').waitFor({ state: 'hidden' });
}

/** Types a prompt and sends it with Enter. */
export async function sendPrompt(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('prompt-input');
  await input.fill(text);
  await input.press('Enter');
}
