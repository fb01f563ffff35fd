import { describe, expect, it } from 'vitest';
import { addUsage, formatCost } from './cost';
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
