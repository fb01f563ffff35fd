// The agent layer's public surface. Its parts: the loop (loop.ts: one model call per turn, then its tool calls),
// model-call.ts and assistant-stream.ts (a provider's stream as the loop's events), tool-execution.ts (lookup,
// argument repair, validation, the policy hook, execution) with batch-order.ts (which calls of one message may
// overlap), tool-results.ts (the results the model reads), abort.ts, todo-list.ts (the agent's todo list as the
// model reads it); compaction/, the model's view of a long session (the context guard before each call, summaries,
// the cut point, the todo list re-stated).
export { runAgentLoop } from './loop';
export type * from './types';
