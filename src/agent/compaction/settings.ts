// When to compact and how much to keep, for any context window, and how much output a request may ask for.
import type { Model } from '../../ai/types';

export type CompactionSettings = {
  /** Compact by itself before a model call that would not fit, and after a provider's context overflow. */
  auto: boolean;
  /** Tokens left free for the reply; default 16,384, or 25% of windows under 64k. */
  reserveTokens?: number;
  /** Tokens of recent messages kept verbatim; default 20,000, or 30% of the window when that is smaller. */
  keepRecentTokens?: number;
};

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { auto: true };
export const DEFAULT_RESERVE_TOKENS = 16_384;
export const DEFAULT_KEEP_RECENT_TOKENS = 20_000;
const SMALL_WINDOW = 64_000;
/** Even a nearly full context asks for this much output; a request that then overflows is recovered by compaction. */
export const MIN_OUTPUT_TOKENS = 1_024;

/** The reserve for `contextWindow`, from the settings or the defaults. */
export function reserveTokensFor(contextWindow: number, settings?: Pick<CompactionSettings, 'reserveTokens'>): number {
  if (settings?.reserveTokens !== undefined && settings.reserveTokens > 0) return Math.floor(settings.reserveTokens);
  return contextWindow < SMALL_WINDOW ? Math.floor(contextWindow * 0.25) : DEFAULT_RESERVE_TOKENS;
}

/** How many recent tokens a compaction keeps verbatim for `contextWindow`. */
export function keepRecentTokensFor(contextWindow: number, settings?: Pick<CompactionSettings, 'keepRecentTokens'>): number {
  if (settings?.keepRecentTokens !== undefined && settings.keepRecentTokens > 0) return Math.floor(settings.keepRecentTokens);
  return Math.min(DEFAULT_KEEP_RECENT_TOKENS, Math.floor(contextWindow * 0.3));
}

/** The context size above which the next model call compacts first. */
export function compactionThreshold(contextWindow: number, settings?: Pick<CompactionSettings, 'reserveTokens'>): number {
  return contextWindow - reserveTokensFor(contextWindow, settings);
}

/** True when a context of `contextTokens` should be compacted before the next model call. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings?: Pick<CompactionSettings, 'reserveTokens'>): boolean {
  return contextTokens > compactionThreshold(contextWindow, settings);
}

/**
 * The max output tokens for one request: what was asked for (else the model's maximum), lowered so that the
 * estimated input plus the output fits the window. Sending a model's full maximum (128k for some) would otherwise
 * make a provider reject a request whose input alone fits.
 */
export function clampMaxOutput(model: Pick<Model, 'contextWindow' | 'maxTokens'>, inputTokens: number, requested?: number): number {
  const wanted = requested !== undefined && requested > 0 ? requested : model.maxTokens;
  const room = model.contextWindow - inputTokens;
  return Math.max(Math.min(wanted, MIN_OUTPUT_TOKENS), Math.min(wanted, room));
}
