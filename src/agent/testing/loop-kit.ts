// Shared fixtures for the loop's tests: a model, tools, and a runner that records every event and checks the
// invariants every run must keep.
import { Type, type TSchema } from '@sinclair/typebox';
import { expect } from 'vitest';
import type { Message, Model, ToolResultMessage, UserMessage } from '../../ai/types';
import { createScriptedStreamFn, type ScriptedTurnFactory, type ScriptedTurnInput } from '../../ai/providers/scripted';
import { testModel as makeTestModel } from '../../ai/testing/test-model';
import { runAgentLoop } from '../loop';
import type { AgentEvent, AgentLoopConfig, AgentTool, AgentToolResult } from '../types';

export const testModel: Model = makeTestModel();

export function user(text: string): UserMessage {
  return { role: 'user', content: text, timestamp: 0 };
}

export function textOf(result: { content: AgentToolResult['content'] }): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType}]`)).join('\n');
}

/** A tool whose behaviour is given inline; records the args it ran with. */
export function makeTool<S extends TSchema>(
  name: string,
  parameters: S,
  run: (args: unknown, signal?: AbortSignal, onUpdate?: (p: AgentToolResult) => void) => Promise<AgentToolResult> | AgentToolResult,
  extra: Partial<AgentTool<S>> = {},
): AgentTool<S> & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    name,
    label: name,
    description: `${name} tool`,
    parameters,
    async execute(_id, args, signal, onUpdate) {
      calls.push(args);
      return run(args, signal, onUpdate);
    },
    ...extra,
    calls,
  };
}

export const echoTool = () =>
  makeTool('echo', Type.Object({ text: Type.String() }), (args) => ({
    content: [{ type: 'text', text: `echo: ${(args as { text: string }).text}` }],
  }));

export type RunOutcome = {
  events: AgentEvent[];
  messages: Message[];
  toolResults: ToolResultMessage[];
  requests: ReturnType<typeof createScriptedStreamFn>['requests'];
};

/** Runs the loop to the end with a scripted provider and checks the invariants every run must keep. */
export async function runScripted(
  turns: ScriptedTurnInput[] | ScriptedTurnFactory,
  options: {
    tools?: AgentTool[];
    prompts?: Message[];
    history?: Message[];
    config?: Partial<AgentLoopConfig>;
    signal?: AbortSignal;
    onEvent?: (event: AgentEvent) => void;
  } = {},
): Promise<RunOutcome> {
  const streamFn = createScriptedStreamFn(turns);
  const stream = runAgentLoop(
    options.prompts ?? [user('go')],
    { systemPrompt: 'You are a test.', messages: options.history ?? [], tools: options.tools ?? [] },
    { model: testModel, streamFn, ...options.config },
    options.signal,
  );
  const events: AgentEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    options.onEvent?.(event);
  }
  const messages = await stream.result();
  expectValidRun(events, messages);
  return {
    events,
    messages,
    toolResults: messages.filter((m): m is ToolResultMessage => m.role === 'toolResult'),
    requests: streamFn.requests,
  };
}

/** agent_end last with the same messages as result(); every tool call answered exactly once, after its call. */
export function expectValidRun(events: AgentEvent[], messages: Message[]): void {
  expect(events[0]?.type).toBe('agent_start');
  const last = events.at(-1);
  expect(last?.type).toBe('agent_end');
  expect(last && last.type === 'agent_end' ? last.messages : undefined).toEqual(messages);
  expect(events.filter((e) => e.type === 'agent_end')).toHaveLength(1);

  const open = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      expect(open.size, 'a new assistant message while tool calls were unanswered').toBe(0);
      for (const block of message.content) if (block.type === 'toolCall') open.set(block.id, 0);
    } else if (message.role === 'toolResult') {
      expect(open.has(message.toolCallId), `result for unknown or already answered call ${message.toolCallId}`).toBe(true);
      open.delete(message.toolCallId);
    } else {
      expect(open.size, 'a user message while tool calls were unanswered').toBe(0);
    }
  }
  expect([...open.keys()], 'tool calls without a result').toEqual([]);

  // Ids are only unique within one assistant message (providers may reuse them across turns).
  let ends = new Set<string>();
  for (const event of events) {
    if (event.type === 'turn_start') ends = new Set();
    if (event.type !== 'tool_execution_end') continue;
    expect(ends.has(event.toolCallId), `tool call ${event.toolCallId} ended twice`).toBe(false);
    ends.add(event.toolCallId);
  }
}

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
