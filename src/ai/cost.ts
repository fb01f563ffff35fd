import type { Model, Usage } from './types';

/** The dollar cost of `usage`'s tokens at the model's prices ($ per million tokens); undefined when its price is unknown. */
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

/** The dollar cost of `usage`'s web searches at the catalog's price per 1,000; undefined when searched at an unknown price. */
export function searchCostOf(model: Model, usage: Omit<Usage, 'cost'>): number | undefined {
  const searches = usage.webSearches ?? 0;
  if (searches === 0) return 0;
  const per1000 = model.webTools?.searchPer1000;
  return per1000 === undefined ? undefined : (searches * per1000) / 1000;
}

/**
 * Sets `usage.cost` from the token counts and searches: the total, or `unknown` when a price is unknown (the total then
 * counts only what is known: the tokens when just the searches' price is unknown).
 */
export function withCost(model: Model, usage: Omit<Usage, 'cost'>): Usage {
  const tokens = costOf(model, usage);
  const searches = searchCostOf(model, usage);
  if (tokens === undefined) return { ...usage, cost: { total: 0, unknown: true } };
  if (searches === undefined) return { ...usage, cost: { total: tokens, unknown: true } };
  return { ...usage, cost: { total: tokens + searches } };
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
    ...(a.webSearches || b.webSearches ? { webSearches: (a.webSearches ?? 0) + (b.webSearches ?? 0) } : {}),
    cost: unknown ? { total: a.cost.total + b.cost.total, unknown } : { total: a.cost.total + b.cost.total },
  };
}
