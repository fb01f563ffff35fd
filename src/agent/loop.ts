/**
 * The agent loop: prompt -> model -> tool calls -> results -> model ... until the model stops calling tools.
 *
 * A run: agent_start; then turns. A turn: turn_start; queued messages (the prompts, later steering messages) as
 * message_start/message_end; the model's message streamed as message_start/message_update/message_end; its tool
 * calls settled; turn_end. agent_end is always the last event; its `messages` (and result()) are everything the
 * run appended, in order. `context.messages` is never modified: the caller appends the result itself.
 *
 * The life of one tool call (tool-execution.ts), in this order:
 *   tool_execution_start -> lookup among the ACTIVE tools (missing: "Tool <name> not found")
 *   -> tool.prepareArguments -> validation (coercion on a copy; failure lists every bad field)
 *   -> config.beforeToolCall (may block, rewrite args, await a person; a throw blocks)
 *   -> tool.execute -> config.afterToolCall (may override content, details, isError)
 *   -> tool_execution_end (as it finishes) -> its toolResult message, delivered in call order.
 * Calls of one message overlap where they cannot observe each other (their tools' declared effects) and otherwise
 * keep the order the model wrote them; a sequential tool makes the whole batch run in order. A message cut off by
 * the token limit runs none of its calls; a message that failed or was aborted gets error/aborted results for its
 * calls; an abort at any point gives every unfinished call an "aborted" result. Every tool call gets exactly one
 * result.
 *
 * Steering messages (`getSteeringMessages`) are polled after each turn and delivered before the next model call;
 * they also keep the run going when the model stopped without calling tools.
 *
 * Before every model call, `beforeModelCall` may swap the transcript for a compacted view (the run continues from it)
 * and limit the output; after a context overflow it gets one chance to do so and the call is sent again
 * (model-call.ts). It may also give the active tools from then on: the calls of that call's reply, and of every later one,
 * are looked up among them.
 *
 * The provider's `request.messages` is the loop's live transcript: read it during the call, copy it to keep it.
 */
import { EventStream } from '../ai/event-stream';
import type { AssistantMessage, Message, ToolCall, ToolResultMessage } from '../ai/types';
import { errorText } from '../ai/messages';
import { AbortRace } from './abort';
import { callModel } from './model-call';
import { executeToolCalls, settleWithoutRunning, type ToolBatch } from './tool-execution';
import {
  abortedBeforeStart,
  cutOffByLength,
  providerFailed,
  stoppedByInternalError,
  toolResultMessage,
} from './tool-results';
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentTool } from './types';

/** Runs the loop from `prompts` on top of `context`; the stream's result() is the messages this run appended. */
export function runAgentLoop(
  prompts: Message[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal?: AbortSignal,
): EventStream<AgentEvent, Message[]> {
  const stream = new EventStream<AgentEvent, Message[]>();
  void runTurns(prompts, context, config, signal, stream);
  return stream;
}

async function runTurns(
  prompts: Message[],
  context: AgentContext,
  config: AgentLoopConfig,
  signal: AbortSignal | undefined,
  stream: EventStream<AgentEvent, Message[]>,
): Promise<void> {
  const aborts = new AbortRace(signal);
  let transcript = context.messages.slice();
  // The active tools, which beforeModelCall may replace between turns (a server's tool list changed).
  let tools = context.tools;
  const appended: Message[] = [];
  const emit = (event: AgentEvent) => stream.push(event);
  const deliver = (message: Message) => {
    emit({ type: 'message_start', message });
    transcript.push(message);
    appended.push(message);
    emit({ type: 'message_end', message });
  };

  emit({ type: 'agent_start' });
  try {
    let queued: Message[] = prompts;
    for (;;) {
      emit({ type: 'turn_start' });
      for (const message of queued) deliver(message);

      const call = await callModel(transcript, { ...context, tools }, config, aborts, emit);
      transcript = call.transcript;
      tools = call.tools;
      const assistant = call.assistant;
      transcript.push(assistant);
      appended.push(assistant);

      const toolResults = await settleToolCalls(assistant, tools, config, aborts, emit, deliver);
      emit({ type: 'turn_end', message: assistant, toolResults });

      if (assistant.stopReason === 'error' || assistant.stopReason === 'aborted' || signal?.aborted) break;
      queued = config.getSteeringMessages ? await pollSteering(config.getSteeringMessages) : [];
      if (toolResults.length === 0 && queued.length === 0) break;
    }
  } catch (error) {
    // Only a bug or a throwing getSteeringMessages lands here. The run still ends cleanly, and any call left
    // without a result gets one, so the transcript stays valid to send again.
    console.error('The agent loop stopped because of an internal error:', error);
    for (const message of unansweredCallResults(appended, errorText(error))) deliver(message);
  } finally {
    aborts.dispose();
    emit({ type: 'agent_end', messages: appended });
    stream.end(appended);
  }
}

async function settleToolCalls(
  assistant: AssistantMessage,
  tools: AgentTool[],
  config: AgentLoopConfig,
  aborts: AbortRace,
  emit: (event: AgentEvent) => void,
  deliver: (message: Message) => void,
): Promise<ToolResultMessage[]> {
  const calls = assistant.content.filter((block): block is ToolCall => block.type === 'toolCall');
  if (calls.length === 0) return [];
  const batch: ToolBatch = { calls, tools, config, aborts, emit, deliver };
  switch (assistant.stopReason) {
    case 'length':
      return settleWithoutRunning(batch, (call) => cutOffByLength(call.name));
    case 'error':
      return settleWithoutRunning(batch, (call) => providerFailed(call.name, assistant.errorMessage));
    case 'aborted':
      return settleWithoutRunning(batch, (call) => abortedBeforeStart(call.name));
    case 'stop':
    case 'toolUse':
      return executeToolCalls(batch);
  }
}

function unansweredCallResults(appended: Message[], error: string): ToolResultMessage[] {
  const lastAssistant = appended.findLastIndex((message) => message.role === 'assistant');
  if (lastAssistant < 0) return [];
  const assistant = appended[lastAssistant] as AssistantMessage;
  const answered = new Set(
    appended.slice(lastAssistant + 1).flatMap((m) => (m.role === 'toolResult' ? [m.toolCallId] : [])),
  );
  return assistant.content
    .filter((block): block is ToolCall => block.type === 'toolCall' && !answered.has(block.id))
    .map((call) => toolResultMessage(call, stoppedByInternalError(call.name, error), true));
}

async function pollSteering(getSteeringMessages: () => Promise<Message[]>): Promise<Message[]> {
  const messages = await getSteeringMessages();
  return Array.isArray(messages) ? messages : [];
}
