import type { Model, Usage } from './types';

/** The dollar cost of `usage` at the model's prices ($ per million tokens); undefined when its price is unknown. */
export function costOf(model: Model, usage: Omit<Usage, 'cost'>): number | undefined {
  const price = model.cost;
  if (!price) return undefined;
  const dollars =
    usage.input * price.input +
    usage.output * price.output +
    usage.cacheRead * price.cacheRead +
    usage.cacheWrite * price.cacheWrite;
  return dollars / 1_000_000;
}

/** Sets `usage.cost` from the token counts: the total, or `unknown` (total 0) when the model has no known price. */
export function withCost(model: Model, usage: Omit<Usage, 'cost'>): Usage {
  const total = costOf(model, usage);
  return { ...usage, cost: total === undefined ? { total: 0, unknown: true } : { total } };
}

/**
 * A cost for people: "$0.012", "$3.40"; "—" when nothing of it is known; "≥ $0.012" when part of it is unknown
 * (some replies came from a model without a known price).
 */
export function formatCost(total: number, partlyUnknown = false): string {
  if (partlyUnknown && total === 0) return '—';
  const dollars = `$${total.toFixed(total < 1 ? 3 : 2)}`;
  return partlyUnknown ? `≥ ${dollars}` : dollars;
}

/** The sum of two usages, tokens and cost (a cost is unknown in part when either one's is). */
export function addUsage(a: Usage, b: Usage): Usage {
  const unknown = a.cost.unknown === true || b.cost.unknown === true;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cost: unknown ? { total: a.cost.total + b.cost.total, unknown } : { total: a.cost.total + b.cost.total },
  };
}
