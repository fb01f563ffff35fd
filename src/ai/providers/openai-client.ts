// The OpenAI SDK client both OpenAI adapters (Chat Completions, Responses) use, set up for the browser.
import type { Model } from '../types';
import type { ProviderStreamOptions } from './run-provider';

/** A browser-mode OpenAI client for `model`'s endpoint; Conch does its own retries, so the SDK does none. */
export async function createOpenAIClient(model: Model, options: ProviderStreamOptions) {
  const { default: OpenAI } = await import('openai');
  return new OpenAI({
    // Local servers and proxies may take no key, but the SDK insists on one.
    apiKey: options.apiKey || 'no-key',
    baseURL: model.baseUrl || undefined,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { defaultHeaders: options.headers } : {}),
  });
}
