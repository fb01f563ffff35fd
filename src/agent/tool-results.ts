// The results the loop writes itself, when a tool call cannot or must not run. Each text tells the model what
// happened and what to do next.
import type { ToolCall, ToolResultMessage } from '../ai/types';
import type { AgentTool, AgentToolResult } from './types';

export function textResult(text: string): AgentToolResult {
  return { content: [{ type: 'text', text }] };
}

export function toolResultMessage(call: ToolCall, result: AgentToolResult, isError: boolean): ToolResultMessage {
  const message: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    isError,
    timestamp: Date.now(),
  };
  if (result.details !== undefined) message.details = result.details;
  return message;
}

export function toolNotFound(name: string, activeTools: readonly AgentTool[]): AgentToolResult {
  const available =
    activeTools.length === 0
      ? 'No tools are available right now.'
      : `Available tools: ${activeTools.map((t) => t.name).join(', ')}.`;
  // The first block is exactly the contract's text (DESIGN.md); the hint for the model follows in its own block.
  return {
    content: [
      { type: 'text', text: `Tool ${name} not found` },
      { type: 'text', text: `${available} Call one of those instead.` },
    ],
  };
}

export function abortedBeforeStart(name: string): AgentToolResult {
  return textResult(`Tool call aborted: the run was stopped before ${name} started, so it did not run.`);
}

export function abortedWhileRunning(name: string, toolMessage?: string): AgentToolResult {
  const base = `Tool call aborted: the run was stopped while ${name} was running; it may have done part of its work.`;
  return textResult(toolMessage ? `${base}\n${toolMessage}` : base);
}

export function cutOffByLength(name: string): AgentToolResult {
  return textResult(
    `Tool call not executed: your response hit the output token limit, so this ${name} call was cut off and may be ` +
      `incomplete. Re-issue the complete call. If its content was large, split it into smaller pieces ` +
      `(for example several smaller writes or edits).`,
  );
}

export function providerFailed(name: string, errorMessage: string | undefined): AgentToolResult {
  return textResult(
    `Tool call not executed: the response containing this ${name} call ended with an error` +
      `${errorMessage ? ` (${errorMessage})` : ''}.`,
  );
}

export function blockedByHook(name: string, reason: string | undefined): AgentToolResult {
  if (reason?.trim()) return textResult(reason);
  return textResult(`Tool call blocked: ${name} was not allowed to run. Do not retry it as is.`);
}

export function hookFailed(name: string, error: string): AgentToolResult {
  return textResult(
    `Tool call blocked: the check that runs before ${name} failed (${error}), so the call was not run (fail closed).`,
  );
}

export function toolThrew(name: string, error: string): AgentToolResult {
  return textResult(error.trim() ? error : `${name} failed without an error message.`);
}

export function malformedToolResult(name: string): AgentToolResult {
  return textResult(`${name} returned a malformed result (no content list). This is a bug in the tool.`);
}

export function afterHookFailed(name: string, error: string): AgentToolResult {
  return textResult(
    `${name} ran, but its result was withheld because the check that runs after it failed (${error}).`,
  );
}

export function stoppedByInternalError(name: string, error: string): AgentToolResult {
  return textResult(
    `Tool call not completed: the agent stopped because of an internal error (${error}) before ${name} finished.`,
  );
}
