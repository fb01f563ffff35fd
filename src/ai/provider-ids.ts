// The provider families Conch speaks to, by id: the one list the settings, the model catalog and the stream entry
// point share. Each id names a wire API (see stream.ts).

export const PROVIDER_IDS = ['anthropic', 'openai', 'google', 'openai-compatible'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export function isProviderId(value: unknown): value is ProviderId {
  return typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);
}
