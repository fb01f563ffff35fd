// One subagent's run: the loop with a context of its own (its system prompt, its prompt as the first message), its
// own compaction (as a session's run has: ../session/agent-run.ts), a turn cap, and the subagent policy around its
// tool calls. Its events go to its own AgentActivity (the task card's live transcript); its messages to `onMessage`.
import { errorText, messageText } from '../../ai/messages';
import type { AssistantMessage, CompactionEntry, Message, ToolCall, UserMessage } from '../../ai/types';
import type { AgentTool, BeforeToolCallResult } from '../../agent/types';
import type { AgentActivity } from '../session/agent-activity.svelte';
import { loadAgentLoop } from '../session/agent-run';
import { SessionCompaction, type CompactionCall } from '../compaction/session-compaction.svelte';

export type SubagentRunInput = {
  prompt: UserMessage;
  /** The model, provider options and compaction settings; `systemPrompt` and `tools` are the subagent's own. */
  call: CompactionCall & { tools: AgentTool[]; maxOutputTokens?: number };
  /** Model calls it may make; the last one is asked for its conclusion with no tools. */
  turnCap: number;
  check(call: { toolCall: ToolCall; args: unknown; tool: AgentTool }): Promise<BeforeToolCallResult>;
  activity: AgentActivity;
  /** A message joined its transcript; `compactions` and summary usage as they are now. */
  onMessage(message: Message, compactions: CompactionEntry[], summaries: SessionCompaction['usage']): void;
  signal: AbortSignal;
};

export type SubagentOutcome =
  | { kind: 'done'; reply: string; hitCap: boolean }
  | { kind: 'aborted'; reply: string }
  | { kind: 'error'; reply: string; error: string };

export const LAST_TURN_NOTE =
  'You have reached your turn limit: you can call no more tools. Reply now with your conclusion: what you found or did, and what is left undone.';

/** Runs the subagent to its end; never throws (a failure is an 'error' outcome). */
export async function runSubagent(input: SubagentRunInput): Promise<SubagentOutcome> {
  const { call, activity } = input;
  const messages: Message[] = [];
  const compaction = new SessionCompaction([], () => messages.length, () => {});
  const capStop = new AbortController();
  const signal = AbortSignal.any([input.signal, capStop.signal]);
  let modelCalls = 0;
  try {
    const runAgentLoop = await loadAgentLoop();
    const guard = compaction.guard(compaction.view([]), call);
    const stream = runAgentLoop(
      [input.prompt],
      { systemPrompt: call.systemPrompt, messages: [], tools: call.tools },
      {
        model: call.model,
        streamFn: call.streamFn,
        streamOptions: call.streamOptions,
        beforeModelCall: async (modelCall, callSignal) => {
          const plan = await guard.beforeModelCall(modelCall, callSignal);
          if (modelCall.overflow !== undefined) return plan;
          modelCalls++;
          // Past the cap (it still called tools on its last turn): stop it, and report what it has.
          if (modelCalls > input.turnCap) capStop.abort();
          if (modelCalls < input.turnCap) return plan;
          return { ...plan, tools: [], systemPrompt: `${call.systemPrompt}\n\n${LAST_TURN_NOTE}` };
        },
        beforeToolCall: async (toolCall, toolSignal) => {
          const verdict = await input.check(toolCall);
          activity.decided(toolCall, verdict, toolSignal);
          return verdict;
        },
      },
      signal,
    );
    for await (const event of stream) {
      activity.handle(event);
      if (event.type === 'message_end') {
        messages.push(event.message);
        compaction.caughtUp();
        input.onMessage(event.message, compaction.compactions, compaction.usage);
      }
    }
  } catch (error) {
    return { kind: 'error', reply: lastReply(messages), error: errorText(error) };
  } finally {
    activity.runEnded();
  }
  const reply = lastReply(messages);
  if (input.signal.aborted) return { kind: 'aborted', reply };
  if (capStop.signal.aborted) return { kind: 'done', reply, hitCap: true };
  const last = messages.findLast((m): m is AssistantMessage => m.role === 'assistant');
  if (last?.stopReason === 'error') return { kind: 'error', reply, error: last.errorMessage ?? 'The provider failed.' };
  return { kind: 'done', reply, hitCap: modelCalls >= input.turnCap };
}

/** The text of its last reply that has any (its conclusion). */
function lastReply(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    const text = messageText(m).trim();
    if (text !== '') return text;
  }
  return '';
}
