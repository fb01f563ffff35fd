// The providers Conch can talk to, named once. Each id picks a wire API (see stream.ts) and a way to list models
// (see model-list.ts); a new id fails to compile until every exhaustive switch over it handles it.

export const PROVIDER_IDS = ['anthropic', 'openai', 'google', 'openai-compatible'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** Whether `value` is one of PROVIDER_IDS. */
export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}
