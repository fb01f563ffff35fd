// The token and cost totals a session shows: its replies' usage plus its compactions' summary calls.
import { addUsage } from '../../ai/cost';
import type { Message, Usage } from '../../ai/types';

/** `costUnknown`: some reply came from a model whose price is unknown, so `cost` counts only the others. */
export type SessionTotals = { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number; costUnknown: boolean };

/** Totals of the assistant messages of `messages` and of `summaries` (the compactions' own calls). */
export function sessionTotals(messages: readonly Message[], summaries: Usage): SessionTotals {
  const sum = messages.reduce((total, m) => (m.role === 'assistant' ? addUsage(total, m.usage) : total), summaries);
  const { input, output, cacheRead, cacheWrite, cost } = sum;
  return { input, output, cacheRead, cacheWrite, cost: cost.total, costUnknown: cost.unknown === true };
}
