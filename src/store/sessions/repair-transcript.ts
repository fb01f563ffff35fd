// Restores the transcript invariant "every tool call has exactly one result" after a reload or crash mid-turn.
import type { AssistantMessage, Message, TaskEntry, ToolCall, ToolResultMessage } from '../../ai/types';

export const ABORTED_BY_RELOAD = 'aborted: the page was reloaded before this tool call finished';
export const INTERRUPTED_BY_RELOAD = 'Interrupted — the page was closed while the reply was streaming';
export const TASK_INTERRUPTED_BY_RELOAD = 'Interrupted — the page was closed while this task ran';

/**
 * A repaired copy: tool calls without results get synthesized isError results, placed right after their
 * assistant message's existing results; a trailing assistant message with no content (a stream cut off before
 * anything arrived) is dropped. Returns the input array itself when nothing needed repair.
 */
export function repairTranscript(messages: Message[]): Message[] {
  let list = messages;
  const last = list.at(-1);
  if (last?.role === 'assistant' && last.content.length === 0) list = list.slice(0, -1);

  const answered = new Set<string>();
  for (const message of list) if (message.role === 'toolResult') answered.add(message.toolCallId);

  let repaired: Message[] | null = null;
  for (let index = 0; index < list.length; index++) {
    const message = list[index];
    repaired?.push(message);
    if (message.role !== 'assistant') continue;
    const missing = toolCallsOf(message).filter((call) => !answered.has(call.id));
    if (missing.length === 0) continue;
    repaired ??= list.slice(0, index + 1);
    // Keep the results that did arrive directly after the assistant message, then add the missing ones.
    while (list[index + 1]?.role === 'toolResult') repaired.push(list[++index]);
    for (const call of missing) repaired.push(abortedResult(call, message.timestamp));
  }
  return repaired ?? list;
}

/** The synthesized results for tool calls of the LAST assistant message that have none, in call order. */
export function missingTrailingResults(messages: Message[]): ToolResultMessage[] {
  let index = messages.length - 1;
  while (index >= 0 && messages[index].role === 'toolResult') index--;
  const assistant = messages[index];
  if (assistant?.role !== 'assistant') return [];
  const answered = new Set(
    messages.slice(index + 1).map((m) => (m.role === 'toolResult' ? m.toolCallId : '')),
  );
  return toolCallsOf(assistant)
    .filter((call) => !answered.has(call.id))
    .map((call) => abortedResult(call, assistant.timestamp));
}

/**
 * A reply found in the draft slot after a reload, closed so the transcript can go on from it: the partial reply as
 * aborted, followed by an aborted result for each of its tool calls (none of them ran).
 */
export function closeInterruptedReply(draft: AssistantMessage): Message[] {
  const closed: AssistantMessage = { ...draft, stopReason: 'aborted', errorMessage: INTERRUPTED_BY_RELOAD };
  return [closed, ...toolCallsOf(closed).map((call) => abortedResult(call, closed.timestamp))];
}

/**
 * A stored task as it is shown after a reload: one stored queued or running ended when the page closed, so it comes
 * back aborted and interrupted, ended `now`, its partial transcript kept (tool calls left without a result get
 * aborted ones). A task that had ended is returned as it is.
 */
export function closeInterruptedTask(task: TaskEntry, now: number): TaskEntry {
  if (task.status !== 'queued' && task.status !== 'running') return task;
  return {
    ...task,
    status: 'aborted',
    interrupted: true,
    endedAt: task.endedAt ?? now,
    messages: repairTranscript(task.messages),
    error: task.error ?? TASK_INTERRUPTED_BY_RELOAD,
  };
}

function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((block): block is ToolCall => block.type === 'toolCall');
}

function abortedResult(call: ToolCall, timestamp: number): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text: ABORTED_BY_RELOAD }],
    isError: true,
    timestamp,
  };
}
