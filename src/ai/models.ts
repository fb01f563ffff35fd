// The built-in model catalog: the text models the installed SDKs know (@anthropic-ai/sdk, openai, @google/genai),
// with limits and list prices ($ per million tokens) where the provider's own documentation confirms them. A price
// that could not be confirmed (tiered, promotional, unpublished) is left out: the model's cost is then unknown, never
// $0. Limits that could not be confirmed fall back to the same guess as any typed id (guessedLimits). Each provider
// names one default, outside the deprecation table (model-deprecations.ts); a test keeps it that way.
// Cache prices follow each provider's published rule where only input and output are listed: Anthropic bills a
// cache read at 0.1x and a 5-minute cache write at 1.25x the input price; OpenAI's GPT-5.6 family the same.
import { deprecationOf } from './model-deprecations';
import type { ProviderId } from './provider-id';
import type { Model } from './types';

type Price = NonNullable<Model['cost']>;
type CatalogEntry = Pick<Model, 'id' | 'name'> &
  Partial<Pick<Model, 'contextWindow' | 'maxTokens' | 'input' | 'reasoning' | 'cost' | 'webTools'>>;

const TEXT_AND_IMAGE: Model['input'] = ['text', 'image'];
const M = 1_000_000;

/** Anthropic's and OpenAI's rule for the cache: read 0.1x, write 1.25x the input price. */
function priced(input: number, output: number): Price {
  return { input, output, cacheRead: round(input * 0.1), cacheWrite: round(input * 1.25) };
}
const round = (n: number) => Math.round(n * 10_000) / 10_000;

const ANTHROPIC: CatalogEntry[] = [
  { id: 'claude-sonnet-5-5', name: 'Claude Sonnet 5.5', contextWindow: M, maxTokens: 128_000, cost: priced(2, 10) },
  { id: 'claude-opus-5-5', name: 'Claude Opus 5.5', contextWindow: M, maxTokens: 128_000, cost: priced(4, 20) },
  // Haiku 5.5 is priced in tiers ("from $0.10 / $0.50"); Fable 5.2's cache prices are not published alike.
  { id: 'claude-haiku-5-5', name: 'Claude Haiku 5.5', contextWindow: M, maxTokens: 128_000 },
  { id: 'claude-fable-5-2', name: 'Claude Fable 5.2', contextWindow: M, maxTokens: 128_000 },
  { id: 'claude-fable-5-1', name: 'Claude Fable 5.1', contextWindow: M, maxTokens: 128_000, cost: priced(10, 50) },
  { id: 'claude-fable-5', name: 'Claude Fable 5', contextWindow: M, maxTokens: 128_000, cost: priced(10, 50) },
  { id: 'claude-sonnet-5', name: 'Claude Sonnet 5', contextWindow: M, maxTokens: 128_000, cost: priced(2, 10) },
  { id: 'claude-opus-5', name: 'Claude Opus 5', contextWindow: M, maxTokens: 128_000, cost: priced(5, 25) },
  // Mythos models are by invitation; Mythos 5 shares Fable 5's specification and price, the later ones are unpublished.
  { id: 'claude-mythos-5-2', name: 'Claude Mythos 5.2' },
  { id: 'claude-mythos-5-1', name: 'Claude Mythos 5.1' },
  { id: 'claude-mythos-5', name: 'Claude Mythos 5', contextWindow: M, maxTokens: 128_000, cost: priced(10, 50) },
  { id: 'claude-opus-4-8', name: 'Claude Opus 4.8', contextWindow: M, maxTokens: 128_000, cost: priced(5, 25) },
  { id: 'claude-opus-4-7', name: 'Claude Opus 4.7', contextWindow: M, maxTokens: 128_000, cost: priced(5, 25) },
  { id: 'claude-opus-4-6', name: 'Claude Opus 4.6', contextWindow: M, maxTokens: 128_000, cost: priced(5, 25) },
  { id: 'claude-sonnet-4-6', name: 'Claude Sonnet 4.6', contextWindow: 200_000, maxTokens: 64_000, cost: priced(3, 15) },
  { id: 'claude-haiku-4-5', name: 'Claude Haiku 4.5', contextWindow: 200_000, maxTokens: 64_000, cost: priced(1, 5) },
  { id: 'claude-opus-4-5', name: 'Claude Opus 4.5', contextWindow: 200_000, maxTokens: 64_000, cost: priced(5, 25) },
  { id: 'claude-sonnet-4-5', name: 'Claude Sonnet 4.5', contextWindow: 200_000, maxTokens: 64_000, cost: priced(3, 15) },
];

const OPENAI: CatalogEntry[] = [
  { id: 'gpt-5.6-terra', name: 'GPT-5.6 Terra', contextWindow: 1_050_000, maxTokens: 128_000, cost: priced(2, 12) },
  // Sol's list price was a promotion "until at least 21 November 2026": unknown from then on.
  { id: 'gpt-5.6-sol', name: 'GPT-5.6 Sol', contextWindow: 1_050_000, maxTokens: 128_000 },
  { id: 'gpt-5.6-luna', name: 'GPT-5.6 Luna', contextWindow: 1_050_000, maxTokens: 128_000, cost: priced(0.2, 1.2) },
  { id: 'gpt-5.4', name: 'GPT-5.4' },
  { id: 'gpt-5.4-mini', name: 'GPT-5.4 mini' },
  { id: 'gpt-5.4-nano', name: 'GPT-5.4 nano' },
  { id: 'gpt-5.2', name: 'GPT-5.2' },
  { id: 'gpt-5.1', name: 'GPT-5.1', contextWindow: 400_000, maxTokens: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
  { id: 'gpt-5.1-codex', name: 'GPT-5.1 Codex' },
  { id: 'gpt-5', name: 'GPT-5', contextWindow: 400_000, maxTokens: 128_000, cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
  { id: 'gpt-5-mini', name: 'GPT-5 mini', contextWindow: 400_000, maxTokens: 128_000, cost: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 } },
  { id: 'gpt-5-nano', name: 'GPT-5 nano', contextWindow: 400_000, maxTokens: 128_000, cost: { input: 0.05, output: 0.4, cacheRead: 0.005, cacheWrite: 0 } },
  // Non-reasoning models pay more per search than the reasoning ones ($25 against $10 per 1,000).
  { id: 'gpt-4.1', name: 'GPT-4.1', contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false, cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 }, webTools: { searchPer1000: 25 } },
  { id: 'gpt-4.1-mini', name: 'GPT-4.1 mini', contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false, cost: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 }, webTools: { searchPer1000: 25 } },
];

// Gemini bills cache storage by the hour rather than cache writes, so cacheWrite is 0.
const GOOGLE: CatalogEntry[] = [
  { id: 'gemini-3.5-flash', name: 'Gemini 3.5 Flash', contextWindow: 1_048_576, maxTokens: 65_536, cost: { input: 1.5, output: 9, cacheRead: 0.15, cacheWrite: 0 } },
  // 3.8 Flash's price is a promotion "through December 31, 2026".
  { id: 'gemini-3.8-flash', name: 'Gemini 3.8 Flash', contextWindow: 1_000_000, maxTokens: 65_536 },
  { id: 'gemini-3.7-flash', name: 'Gemini 3.7 Flash' },
  { id: 'gemini-3.6-flash', name: 'Gemini 3.6 Flash' },
  { id: 'gemini-3.5-flash-lite', name: 'Gemini 3.5 Flash-Lite' },
  { id: 'gemini-3.1-pro-preview', name: 'Gemini 3.1 Pro (preview)', contextWindow: 1_048_576, maxTokens: 65_536 },
  { id: 'gemini-3.1-flash-lite', name: 'Gemini 3.1 Flash-Lite' },
  { id: 'gemini-3-flash-preview', name: 'Gemini 3 Flash (preview)' },
  { id: 'gemini-3-pro-preview', name: 'Gemini 3 Pro (preview)', contextWindow: 1_048_576, maxTokens: 65_536, cost: { input: 2, output: 12, cacheRead: 0.2, cacheWrite: 0 } },
  { id: 'gemini-2.5-pro', name: 'Gemini 2.5 Pro', contextWindow: 1_048_576, maxTokens: 65_536, cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 } },
  { id: 'gemini-2.5-flash', name: 'Gemini 2.5 Flash', contextWindow: 1_048_576, maxTokens: 65_536, cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0 } },
  { id: 'gemini-2.5-flash-lite', name: 'Gemini 2.5 Flash-Lite', contextWindow: 1_048_576, maxTokens: 65_536, cost: { input: 0.1, output: 0.4, cacheRead: 0.01, cacheWrite: 0 } },
];

/**
 * Every catalog model has its provider's server-side web tools (Anthropic's web_search and web_fetch, OpenAI
 * Responses' web_search, Gemini's googleSearch and urlContext). Anthropic and OpenAI bill $10 per 1,000 searches
 * (fetches cost only their tokens); Gemini's grounding is billed per prompt or per query by model, after a free daily
 * allowance, so its price is left unknown.
 */
const WEB_TOOLS: Record<'anthropic' | 'openai' | 'google', NonNullable<Model['webTools']>> = {
  anthropic: { searchPer1000: 10 },
  openai: { searchPer1000: 10 },
  google: {},
};

/** The default model of each provider with a catalog (outside the deprecation table; see model-deprecations.test.ts). */
const DEFAULT_MODEL: Partial<Record<ProviderId, string>> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5.6-terra',
  google: 'gemini-3.5-flash',
};

function entries(provider: keyof typeof WEB_TOOLS, list: CatalogEntry[]): Model[] {
  return list.map((entry) => ({
    provider,
    input: TEXT_AND_IMAGE,
    reasoning: true,
    webTools: WEB_TOOLS[provider],
    ...guessedLimits(provider),
    ...entry,
  }));
}

export const MODELS: readonly Model[] = [...entries('anthropic', ANTHROPIC), ...entries('openai', OPENAI), ...entries('google', GOOGLE)];

/** The catalog's models for one provider id, in display order (the default first). */
export function modelsFor(provider: string): Model[] {
  return MODELS.filter((model) => model.provider === provider);
}

/** A catalog model, or undefined. */
export function findModel(provider: string, id: string): Model | undefined {
  return MODELS.find((model) => model.provider === provider && model.id === id);
}

/** The provider's default model: named in the catalog, never a deprecated one; undefined for custom endpoints. */
export function defaultModelFor(provider: string): Model | undefined {
  const id = DEFAULT_MODEL[provider as ProviderId];
  const model = id ? findModel(provider, id) : undefined;
  return model && !deprecationOf(provider, model.id) ? model : modelsFor(provider).find((m) => !deprecationOf(provider, m.id));
}

/** Limits for a model nothing is known about: what current models of that provider at least offer. */
export function guessedLimits(provider: string): Pick<Model, 'contextWindow' | 'maxTokens'> {
  return {
    contextWindow: provider === 'google' ? 1_048_576 : 128_000,
    // Anthropic requires max_tokens; 8192 is accepted by every current Claude model.
    maxTokens: provider === 'anthropic' ? 8192 : 16_384,
  };
}

/**
 * A Model for any id a person types: the catalog entry when known (with `baseUrl` applied), otherwise guessed limits,
 * an unknown price, and reasoning switched on only for families known to think.
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
    ...guessedLimits(provider),
    input: bigThree ? ['text', 'image'] : ['text'],
    reasoning: REASONING_FAMILIES.some((pattern) => pattern.test(trimmed)) && bigThree,
  };
}

const REASONING_FAMILIES = [/^claude-(opus|sonnet|haiku)-[4-9]/, /^claude-[a-z]+-[5-9]/, /^claude-3-7/, /^gpt-5/, /^o[1-9]/, /^gemini-(2\.5|[3-9])/];
