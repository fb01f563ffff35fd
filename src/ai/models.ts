// The built-in model catalog: the current flagship and small models of each provider, with published list prices
// ($ per million tokens; cache write where the provider bills it). Any other id a person types goes through
// customModel, which guesses sensible limits.
import type { Model } from './types';

type CatalogEntry = Omit<Model, 'provider' | 'baseUrl' | 'input'> & { input?: Model['input'] };

const TEXT_AND_IMAGE: Model['input'] = ['text', 'image'];

function entries(provider: string, list: CatalogEntry[]): Model[] {
  return list.map((entry) => ({ provider, input: TEXT_AND_IMAGE, ...entry }));
}

export const MODELS: readonly Model[] = [
  ...entries('anthropic', [
    { id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6', contextWindow: 200_000, maxTokens: 64_000, reasoning: true,
      cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } },
    { id: 'claude-opus-4-6', name: 'Claude Opus 4.6', contextWindow: 200_000, maxTokens: 128_000, reasoning: true,
      cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } },
    { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', contextWindow: 200_000, maxTokens: 64_000, reasoning: true,
      cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 } },
    { id: 'claude-opus-4-5', name: 'Claude Opus 4.5', contextWindow: 200_000, maxTokens: 64_000, reasoning: true,
      cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 } },
  ]),
  ...entries('openai', [
    { id: 'gpt-5.1', name: 'GPT-5.1', contextWindow: 400_000, maxTokens: 128_000, reasoning: true,
      cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
    { id: 'gpt-5', name: 'GPT-5', contextWindow: 400_000, maxTokens: 128_000, reasoning: true,
      cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
    { id: 'gpt-5-mini', name: 'GPT-5 mini', contextWindow: 400_000, maxTokens: 128_000, reasoning: true,
      cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 } },
    { id: 'gpt-5-nano', name: 'GPT-5 nano', contextWindow: 400_000, maxTokens: 128_000, reasoning: true,
      cost: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 } },
    { id: 'gpt-4.1', name: 'GPT-4.1', contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false,
      cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } },
    { id: 'gpt-4.1-mini', name: 'GPT-4.1 mini', contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false,
      cost: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 } },
  ]),
  ...entries('google', [
    { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true,
      cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
    { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true,
      cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 } },
    { id: 'gemini-2.5-flash-lite', name: 'Gemini 2.5 Flash-Lite', contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true,
      cost: { input: 0.1, output: 0.4, cacheRead: 0.01, cacheWrite: 0 } },
    { id: 'gemini-3-pro-preview', name: 'Gemini 3 Pro (preview)', contextWindow: 1_048_576, maxTokens: 65_536, reasoning: true,
      cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 } },
  ]),
];

/** The catalog's models for one provider id, in display order (first is the default). */
export function modelsFor(provider: string): Model[] {
  return MODELS.filter((model) => model.provider === provider);
}

/** A catalog model, or undefined. */
export function findModel(provider: string, id: string): Model | undefined {
  return MODELS.find((model) => model.provider === provider && model.id === id);
}

/** The model for the default choice of a provider (its first catalog entry). */
export function defaultModelFor(provider: string): Model | undefined {
  return modelsFor(provider)[0];
}

/**
 * A Model for any id a person types: the catalog entry when known (with `baseUrl` applied), otherwise guessed limits,
 * zero prices (cost shows as $0), and reasoning switched on only for families known to think.
 */
export function customModel(provider: string, id: string, baseUrl?: string): Model {
  const trimmed = id.trim();
  const known = findModel(provider, trimmed);
  if (known) return { ...known, ...(baseUrl ? { baseUrl } : {}) };
  const bigThree = provider === 'anthropic' || provider === 'openai' || provider === 'google';
  return {
    provider,
    id: trimmed,
    name: trimmed,
    ...(baseUrl ? { baseUrl } : {}),
    contextWindow: provider === 'google' ? 1_048_576 : 128_000,
    // Anthropic requires max_tokens; 8192 is accepted by every current Claude model.
    maxTokens: provider === 'anthropic' ? 8192 : 16_384,
    input: bigThree ? ['text', 'image'] : ['text'],
    reasoning: REASONING_FAMILIES.some((pattern) => pattern.test(trimmed)) && bigThree,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  };
}

const REASONING_FAMILIES = [/^claude-(opus|sonnet|haiku)-[4-9]/, /^claude-3-7/, /^gpt-5/, /^o[1-9]/, /^gemini-(2\.5|[3-9])/];
