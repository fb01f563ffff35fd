// How full the model's context is, as the top bar shows it ("41k / 200k") and when it warns.
import { compactionThreshold } from '../../agent/compaction';
import type { CompactionPreferences } from './long-session-settings';
import { compactionSettingsOf } from './long-session-settings';

/** The meter warns from this share of the window on. */
export const WARN_FRACTION = 0.8;

export type MeterReading = {
  /** e.g. "41k / 200k" */
  label: string;
  /** Rounded percentage of the window in use (may pass 100). */
  percent: number;
  warn: boolean;
  /** A sentence for the tooltip: the exact figures, and when compaction happens. */
  detail: string;
};

/** A token count as the meter and the dividers write it: 950, 2.4k, 41k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(1))}M`;
  if (tokens >= 9_950) return `${Math.round(tokens / 1_000)}k`;
  if (tokens >= 1_000) return `${Number((tokens / 1_000).toFixed(1))}k`;
  return String(Math.max(0, Math.round(tokens)));
}

/** The meter for `used` tokens of a `contextWindow`, with the person's compaction preferences. */
export function meterReading(used: number, contextWindow: number, preferences: CompactionPreferences): MeterReading {
  const fraction = contextWindow > 0 ? used / contextWindow : 0;
  const exact = (n: number) => n.toLocaleString('en-US');
  const when = preferences.auto
    ? `It is compacted by itself above ${exact(compactionThreshold(contextWindow, compactionSettingsOf(preferences)))} tokens.`
    : 'Automatic compaction is off (settings, Advanced).';
  return {
    label: `${formatTokens(used)} / ${formatTokens(contextWindow)}`,
    percent: Math.round(fraction * 100),
    warn: fraction >= WARN_FRACTION,
    detail: `Context: about ${exact(used)} of ${exact(contextWindow)} tokens (${Math.round(fraction * 100)}%). ${when}`,
  };
}

/** The divider's line for a compaction: "Context compacted: 182k → 24k tokens". */
export function compactedLabel(compaction: { tokensBefore: number; tokensAfter: number }): string {
  return `Context compacted: ${formatTokens(compaction.tokensBefore)} → ${formatTokens(compaction.tokensAfter)} tokens`;
}
