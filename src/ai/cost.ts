import type { Model, Usage } from './types';

/** The dollar cost of `usage` at the model's prices ($ per million tokens); 0 for unknown prices. */
export function costOf(model: Model, usage: Omit<Usage, 'cost'>): number {
  const price = model.cost;
  const dollars =
    usage.input * price.input +
    usage.output * price.output +
    usage.cacheRead * price.cacheRead +
    usage.cacheWrite * price.cacheWrite;
  return dollars / 1_000_000;
}

/** Sets `usage.cost.total` from the token counts. */
export function withCost(model: Model, usage: Omit<Usage, 'cost'>): Usage {
  return { ...usage, cost: { total: costOf(model, usage) } };
}

/** The sum of two usages, tokens and cost. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cost: { total: a.cost.total + b.cost.total },
  };
}
