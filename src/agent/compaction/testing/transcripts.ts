// Builders for compaction tests and the bench: messages with known sizes, a small-window model, and a scripted
// provider that answers summary requests on their own, so they never use up the agent's scripted turns.
import { createScriptedStreamFn, type ScriptedTurn, type ScriptedTurnInput } from '../../../ai/providers/scripted';
import type { AssistantMessage, Message, Model, StreamRequest, ToolCall, ToolResultMessage, UserMessage } from '../../../ai/types';
import { emptyUsage } from '../../../ai/types';
import type { FileEffectOf } from '../file-lists';
import { SUMMARY_SYSTEM_PROMPT } from '../summary-prompts';

export function smallModel(contextWindow = 16_384, maxTokens = 8_192): Model {
  return {
    provider: 'scripted',
    id: `script-${contextWindow}`,
    name: 'Script',
    contextWindow,
    maxTokens,
    input: ['text', 'image'],
    reasoning: false,
    cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
  };
}

export function user(text: string): UserMessage {
  return { role: 'user', content: text, timestamp: 1 };
}

export function reply(text: string, usageInput = 0): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text }],
    provider: 'scripted',
    model: 'script',
    usage: { ...emptyUsage(), input: usageInput },
    stopReason: 'stop',
    timestamp: 2,
  };
}

export function calls(...toolCalls: ToolCall[]): AssistantMessage {
  return { ...reply(''), content: toolCalls, stopReason: 'toolUse' };
}

export function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: 'toolCall', id, name, arguments: args };
}

export function result(toolCallId: string, text: string, toolName = 'read'): ToolResultMessage {
  return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: false, timestamp: 3 };
}

/** Text of about `tokens` tokens (4 characters each), in lines. */
export function bulk(tokens: number, label = 'x'): string {
  const line = `${label} `.repeat(20).slice(0, 39);
  return Array.from({ length: Math.ceil(tokens / 10) }, () => line).join('\n').slice(0, tokens * 4);
}

/** One turn: a request, a tool call with an output of `outputTokens`, and an answer. */
export function turn(n: number, outputTokens: number): Message[] {
  const id = `c${n}`;
  return [
    user(`step ${n}: look at file${n}.ts`),
    calls(call(id, 'read', { path: `file${n}.ts` })),
    result(id, bulk(outputTokens, `out${n}`)),
    reply(`Done with step ${n}.`),
  ];
}

/** read/grep/find/ls read their `path`; write/edit modify it; anything else counts as neither. */
export const fileEffectOf: FileEffectOf = (toolCall) => {
  const path = typeof toolCall.arguments.path === 'string' ? [toolCall.arguments.path] : [];
  if (['read', 'grep', 'find', 'ls'].includes(toolCall.name)) return { kind: 'read', paths: path };
  if (['write', 'edit'].includes(toolCall.name)) return { kind: 'write', paths: path };
  return { kind: 'exec', paths: [] };
};

export function isSummaryRequest(request: StreamRequest): boolean {
  return request.systemPrompt === SUMMARY_SYSTEM_PROMPT;
}

/** The user text of a summary request (transcript and instructions). */
export function summaryRequestText(request: StreamRequest): string {
  const content = request.messages[0]?.content;
  return typeof content === 'string' ? content : '';
}

export type SummaryAnswer = string | ScriptedTurn | ((request: StreamRequest, index: number) => string | ScriptedTurn);

/**
 * A scripted provider for runs with compaction: summary requests get `summaries` (default: a summary naming the
 * request number), everything else the agent's `turns` in order.
 */
export function scriptedWithSummaries(turns: ScriptedTurnInput[], summaries: SummaryAnswer = (_request, i) => `## Goal\nSummary ${i + 1}`) {
  const summaryRequests: StreamRequest[] = [];
  const agentRequests: StreamRequest[] = [];
  const streamFn = createScriptedStreamFn((request, info) => {
    const copy = { ...request, messages: request.messages.slice() };
    if (isSummaryRequest(request)) {
      summaryRequests.push(copy);
      const index = summaryRequests.length - 1;
      const answer = typeof summaries === 'function' ? summaries(request, index) : summaries;
      return typeof answer === 'string' ? { content: answer, usage: { input: 100, output: 50 } } : answer;
    }
    agentRequests.push(copy);
    const next = turns[agentRequests.length - 1];
    if (next === undefined) return { content: [], stopReason: 'error', errorMessage: 'The script has no more agent turns.' };
    return typeof next === 'function' ? next(request, info) : next;
  });
  return { streamFn, summaryRequests, agentRequests };
}
