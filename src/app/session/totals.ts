// The token and cost totals a session shows: its replies' usage plus its compactions' summary calls and its
// subagent tasks (with a line per task).
import { addUsage } from '../../ai/cost';
import type { Message, TaskEntry, Usage } from '../../ai/types';

/** One subagent task's share of the totals. */
export type TaskCost = {
  toolCallId: string;
  description: string;
  agent: string;
  /** Tokens read (cache reads included) and written, as the top bar counts them. */
  input: number;
  output: number;
  tokens: number;
  cost: number;
  costUnknown: boolean;
};

/** `costUnknown`: some reply came from a model whose price is unknown, so `cost` counts only the others. */
export type SessionTotals = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  costUnknown: boolean;
  /** The subagent tasks' part of the above, per task in call order. */
  taskCosts: TaskCost[];
};

/** Totals of the assistant messages of `messages`, of `summaries` (the compactions' own calls) and of `tasks`. */
export function sessionTotals(messages: readonly Message[], summaries: Usage, tasks: readonly TaskEntry[] = []): SessionTotals {
  const own = messages.reduce((total, m) => (m.role === 'assistant' ? addUsage(total, m.usage) : total), summaries);
  const sum = tasks.reduce((total, task) => addUsage(total, task.usage), own);
  const { input, output, cacheRead, cacheWrite, cost } = sum;
  const taskCosts = tasks.map((t) => ({
    toolCallId: t.toolCallId,
    description: t.description,
    agent: t.agent,
    input: t.usage.input + t.usage.cacheRead,
    output: t.usage.output,
    tokens: t.usage.input + t.usage.output + t.usage.cacheRead + t.usage.cacheWrite,
    cost: t.usage.cost.total,
    costUnknown: t.usage.cost.unknown === true,
  }));
  return { input, output, cacheRead, cacheWrite, cost: cost.total, costUnknown: cost.unknown === true, taskCosts };
}
