// The providers Conch can talk to, named once, with the names people read for them. Each id picks a wire API (see
// stream.ts) and a way to list models (see model-list.ts); a new id fails to compile until every exhaustive switch
// over it handles it, and until it is labelled.

export const PROVIDER_IDS = ['anthropic', 'openai', 'google', 'openai-compatible'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Whether `value` is one of PROVIDER_IDS. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}

/**
 * The names people read for each provider: `short` in messages about its requests, keys and replies (the endpoint the
 * person set up is "The endpoint"), `long` where the person chooses and sets it up (settings, and what to set there).
 */
export const PROVIDER_LABELS: Record<ProviderId, { short: string; long: string }> = {
  anthropic: { short: 'Anthropic', long: 'Anthropic' },
  openai: { short: 'OpenAI', long: 'OpenAI' },
  google: { short: 'Google', long: 'Google Gemini' },
  'openai-compatible': { short: 'The endpoint', long: 'OpenAI-compatible endpoint' },
};
