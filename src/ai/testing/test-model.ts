// The one Model the tests use (a scripted provider, no real endpoint); a test that needs another limit or price
// says only that.
import type { Model } from '../types';

/** A test model: 100k-token window, 8k output, text only, $3 / $15 per million tokens; `overrides` change any field. */
export function testModel(overrides: Partial<Model> = {}): Model {
  return {
    provider: 'scripted',
    id: 'script-1',
    name: 'Script',
    contextWindow: 100_000,
    maxTokens: 8_000,
    input: ['text'],
    reasoning: false,
    cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 },
    ...overrides,
  };
}
