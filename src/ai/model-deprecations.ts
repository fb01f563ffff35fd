// Models their provider has deprecated, with the day they stop answering. Conch marks them in the model picker and
// never picks one as a default. The Anthropic rows mirror the table the Anthropic SDK ships but does not export
// (node_modules/@anthropic-ai/sdk/internal/data/deprecated-models): model-deprecations.test.ts fails when the
// installed SDK knows a deprecation this table lacks, so an SDK upgrade brings the update here.

export type Deprecation = {
  /** The day the provider retires the model (ISO date, YYYY-MM-DD). */
  endOfLife: string;
};

const ANTHROPIC: Record<string, Deprecation> = {
  'claude-mythos-preview': { endOfLife: '2026-06-30' },
  'claude-opus-4-5': { endOfLife: '2027-01-22' },
  'claude-opus-4-5-20251101': { endOfLife: '2027-01-22' },
  'claude-sonnet-4-5': { endOfLife: '2026-11-30' },
  'claude-sonnet-4-5-20250929': { endOfLife: '2026-11-30' },
};

const BY_PROVIDER: Record<string, Record<string, Deprecation> | undefined> = { anthropic: ANTHROPIC };

/** The deprecation of model `id` at `provider`, or undefined when it is not known to be deprecated. */
export function deprecationOf(provider: string, id: string): Deprecation | undefined {
  return BY_PROVIDER[provider]?.[id.trim()];
}

/** Every deprecated Anthropic model id, for the comparison with the SDK's own table. */
export function anthropicDeprecations(): Readonly<Record<string, Deprecation>> {
  return ANTHROPIC;
}

/** Whether `deprecation` is past its end of life on `today` (the provider no longer answers). */
export function isRetired(deprecation: Deprecation, today: Date = new Date()): boolean {
  return deprecation.endOfLife < today.toISOString().slice(0, 10);
}
