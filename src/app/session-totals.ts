// The token and cost totals a session shows: its replies' usage plus its compactions' summary calls.
import type { Message, Usage } from '../ai/types';

/** `costUnknown`: some reply came from a model whose price is unknown, so `cost` counts only the others. */
export type SessionTotals = { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number; costUnknown: boolean };

/** Totals of the assistant messages of `messages` and of `summaries` (the compactions' own calls). */
export function sessionTotals(messages: readonly Message[], summaries: Usage): SessionTotals {
  const totals: SessionTotals = {
    input: summaries.input,
    output: summaries.output,
    cacheRead: summaries.cacheRead,
    cacheWrite: summaries.cacheWrite,
    cost: summaries.cost.total,
    costUnknown: summaries.cost.unknown === true,
  };
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    totals.input += m.usage.input;
    totals.output += m.usage.output;
    totals.cacheRead += m.usage.cacheRead;
    totals.cacheWrite += m.usage.cacheWrite;
    totals.cost += m.usage.cost.total;
    if (m.usage.cost.unknown) totals.costUnknown = true;
  }
  return totals;
}
