import { describe, expect, it } from 'vitest';
import { clampMaxOutput, compactionThreshold, keepRecentTokensFor, reserveTokensFor, shouldCompact } from './settings';

describe('when to compact', () => {
  it('reserves 16,384 tokens, or a quarter of a window under 64k', () => {
    expect(reserveTokensFor(200_000)).toBe(16_384);
    expect(reserveTokensFor(64_000)).toBe(16_384);
    expect(reserveTokensFor(32_000)).toBe(8_000);
    expect(reserveTokensFor(16_384)).toBe(4_096);
    expect(reserveTokensFor(200_000, { reserveTokens: 30_000 })).toBe(30_000);
  });

  it('keeps 20,000 recent tokens, or 30% of the window when that is smaller', () => {
    expect(keepRecentTokensFor(200_000)).toBe(20_000);
    expect(keepRecentTokensFor(16_384)).toBe(4_915);
    expect(keepRecentTokensFor(200_000, { keepRecentTokens: 8_000 })).toBe(8_000);
  });

  it('triggers only above the window less the reserve', () => {
    expect(compactionThreshold(200_000)).toBe(183_616);
    expect(shouldCompact(183_616, 200_000)).toBe(false);
    expect(shouldCompact(183_617, 200_000)).toBe(true);
    expect(shouldCompact(12_289, 16_384)).toBe(true);
  });
});

describe('the output clamp', () => {
  const opus = { contextWindow: 200_000, maxTokens: 128_000 };

  it('lowers the max output so that input plus output fits the window', () => {
    expect(clampMaxOutput(opus, 10_000)).toBe(128_000);
    expect(clampMaxOutput(opus, 150_000)).toBe(50_000);
    expect(clampMaxOutput(opus, 150_000, 8_000)).toBe(8_000);
  });

  it('still asks for a little output when the window is nearly full', () => {
    expect(clampMaxOutput(opus, 199_900)).toBe(1_024);
    expect(clampMaxOutput(opus, 250_000, 500)).toBe(500);
  });
});
