import { describe, expect, it } from 'vitest';
import { compactedLabel, formatTokens, meterReading } from './context-meter';

describe('the context meter', () => {
  it('writes token counts short', () => {
    expect([950, 2_430, 16_384, 41_200, 182_000, 200_000, 1_048_576].map(formatTokens)).toEqual(['950', '2.4k', '16k', '41k', '182k', '200k', '1M']);
    expect(compactedLabel({ tokensBefore: 182_300, tokensAfter: 24_100 })).toBe('Context compacted: 182k → 24k tokens');
  });

  it('reads "used / window", warns from 80%, and says when compaction happens', () => {
    const auto = { auto: true, reserveTokens: 0, keepRecentTokens: 0 };
    expect(meterReading(41_000, 200_000, auto)).toMatchObject({ label: '41k / 200k', percent: 21, warn: false });
    expect(meterReading(159_000, 200_000, auto).warn).toBe(false);
    expect(meterReading(160_000, 200_000, auto).warn).toBe(true);
    expect(meterReading(41_000, 200_000, auto).detail).toContain('compacted by itself above 183,616 tokens');
    expect(meterReading(12_000, 16_384, { ...auto, reserveTokens: 2_000 }).detail).toContain('above 14,384 tokens');
    expect(meterReading(12_000, 16_384, { ...auto, auto: false }).detail).toContain('Automatic compaction is off');
  });
});
