import { describe, expect, it } from 'vitest';
import { addUsage, formatCost, withCost } from './cost';
import { customModel } from './models';
import type { Usage } from './types';

const usage = (total: number, unknown?: boolean): Usage => ({ input: 10, output: 2, cacheRead: 1, cacheWrite: 0, cost: unknown ? { total, unknown } : { total } });

describe('adding usages', () => {
  it('adds tokens and cost, and a price unknown on either side stays unknown in the sum', () => {
    expect(addUsage(usage(0.01), usage(0.02))).toEqual({ input: 20, output: 4, cacheRead: 2, cacheWrite: 0, cost: { total: 0.03 } });
    const partly = addUsage(usage(0.01), usage(0, true));
    expect(partly.cost).toEqual({ total: 0.01, unknown: true });
    expect(formatCost(partly.cost.total, partly.cost.unknown)).toBe('≥ $0.010');
  });
});

describe('web searches in the cost', () => {
  const tokens = { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 };
  it('adds the catalog price per 1,000 searches to the tokens', () => {
    // Claude Sonnet 4.6: $3 per million input tokens; $10 per 1,000 searches.
    expect(withCost(customModel('anthropic', 'claude-sonnet-4-6'), { ...tokens, webSearches: 3 }).cost).toEqual({ total: 3.03 });
    expect(withCost(customModel('anthropic', 'claude-sonnet-4-6'), tokens).cost).toEqual({ total: 3 });
  });

  it('counts only the tokens, and says the rest is unknown, when the search price is not known', () => {
    const cost = withCost(customModel('google', 'gemini-2.5-flash'), { ...tokens, webSearches: 2 }).cost;
    expect(cost).toEqual({ total: 0.3, unknown: true });
    expect(formatCost(cost.total, cost.unknown)).toBe('≥ $0.300');
  });

  it('sums searches across replies', () => {
    const a = withCost(customModel('openai', 'gpt-5'), { ...tokens, webSearches: 1 });
    expect(addUsage(a, a).webSearches).toBe(2);
    expect(addUsage(a, usage(0)).webSearches).toBe(1);
  });
});
