// Helpers for the adapter tests: models pointed at the mock provider, a sample request, and event collection.
import { Type } from '@sinclair/typebox';
import { customModel } from '../models';
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageStream, Model, StreamRequest, Tool } from '../types';

/** `framesBeforeText`: SSE frames the mock sends before the first text delta, to place faults mid-text. */
export type ProviderCase = { name: string; model(mockUrl: string): Model; framesBeforeText: number };

export const PROVIDER_CASES: ProviderCase[] = [
  { name: 'anthropic', model: (url) => ({ ...customModel('anthropic', 'claude-haiku-4-5'), baseUrl: url }), framesBeforeText: 3 },
  { name: 'openai (responses)', model: (url) => ({ ...customModel('openai', 'gpt-5'), baseUrl: `${url}/v1` }), framesBeforeText: 4 },
  { name: 'openai-compatible (chat completions)', model: (url) => ({ ...customModel('openai-compatible', 'qwen3-coder', `${url}/v1`), input: ['text', 'image'] }), framesBeforeText: 1 },
  { name: 'google', model: (url) => ({ ...customModel('google', 'gemini-2.5-flash'), baseUrl: url }), framesBeforeText: 0 },
];

export const READ_TOOL: Tool = {
  name: 'read',
  description: 'Read a file',
  parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }),
};

export const BASH_TOOL: Tool = {
  name: 'bash',
  description: 'Run a shell command',
  parameters: Type.Object({ command: Type.String(), mode: Type.Optional(Type.Union([Type.Literal('fast'), Type.Literal('slow')])) }),
};

export function userRequest(text: string, tools: Tool[] = [READ_TOOL, BASH_TOOL]): StreamRequest {
  return { systemPrompt: 'You are a test.', messages: [{ role: 'user', content: text, timestamp: 1 }], tools };
}

export async function collect(stream: AssistantMessageStream): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return { events, message: await stream.result() };
}

export const FAST_RETRY = { retry: { baseDelayMs: 5 } };
