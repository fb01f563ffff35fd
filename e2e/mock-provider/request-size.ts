// A request's size as Conch would estimate it before any usage exists: the request read back from its wire format
// into Conch's shapes (system prompt, tool schemas, messages) and counted with Conch's own estimator (characters / 4,
// an image as 1,200 tokens). Also tells a summary request (Conch's compaction) by its system prompt.
import { estimateRequestTokens } from '../../src/agent/compaction/estimate';
import { SUMMARY_SYSTEM_PROMPT } from '../../src/agent/compaction/summary-prompts';
import type { AssistantMessage, ImageContent, Message, TextContent, Tool, ToolCall } from '../../src/ai/types';
import { emptyUsage } from '../../src/ai/types';
import type { WireApi } from './script';

export type RequestView = { systemPrompt: string; tools: Tool[]; messages: Message[] };

type Json = Record<string, unknown>;

/** The request's size in tokens, by Conch's pre-usage estimate. */
export function requestTokens(api: WireApi, body: unknown): number {
  return estimateRequestTokens(requestView(api, body));
}

/** True for Conch's compaction summary request. */
export function isSummaryRequest(api: WireApi, body: unknown): boolean {
  return requestView(api, body).systemPrompt === SUMMARY_SYSTEM_PROMPT;
}

/** The request in Conch's shapes, as far as sizes go. */
export function requestView(api: WireApi, body: unknown): RequestView {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Json;
  switch (api) {
    case 'anthropic':
      return anthropicView(b);
    case 'openai-chat':
      return chatView(b);
    case 'openai-responses':
      return responsesView(b);
    case 'gemini':
      return geminiView(b);
  }
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const text = (value: string): TextContent => ({ type: 'text', text: value });
const IMAGE: ImageContent = { type: 'image', data: '', mimeType: 'image/png' };
const user = (content: (TextContent | ImageContent)[]): Message => ({ role: 'user', content, timestamp: 0 });
const result = (name: string, content: (TextContent | ImageContent)[]): Message => ({
  role: 'toolResult', toolCallId: '', toolName: name, content, isError: false, timestamp: 0,
});
const assistant = (content: AssistantMessage['content']): Message => ({
  role: 'assistant', content, provider: '', model: '', usage: emptyUsage(), stopReason: 'stop', timestamp: 0,
});
const toolCall = (name: string, args: unknown): ToolCall => ({
  type: 'toolCall', id: '', name, arguments: typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {},
});
const tool = (name: unknown, description: unknown, parameters: unknown): Tool => ({
  name: str(name), description: str(description), parameters: (parameters ?? {}) as Tool['parameters'],
});

function parsedArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return { raw };
  }
}

/** Text blocks and images of a content that is a string or a list of parts. */
function parts(content: unknown): (TextContent | ImageContent)[] {
  if (typeof content === 'string') return [text(content)];
  return list(content).flatMap((part): (TextContent | ImageContent)[] => {
    if (typeof part.text === 'string') return [text(part.text)];
    if (/image/.test(str(part.type))) return [IMAGE];
    return [];
  });
}

function anthropicView(b: Json): RequestView {
  const systemPrompt = typeof b.system === 'string' ? b.system : list(b.system).map((block) => str(block.text)).join('');
  const messages: Message[] = [];
  for (const message of list(b.messages)) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
    if (message.role === 'assistant') {
      messages.push(assistant(blocks.flatMap((block): AssistantMessage['content'] => {
        if (block.type === 'text') return [text(str(block.text))];
        if (block.type === 'thinking') return [{ type: 'thinking', thinking: str(block.thinking) }];
        if (block.type === 'tool_use') return [toolCall(str(block.name), block.input)];
        return [];
      })));
      continue;
    }
    for (const block of blocks.filter((block) => block.type === 'tool_result')) messages.push(result('', parts(block.content)));
    const rest = blocks.filter((block) => block.type !== 'tool_result');
    if (rest.length > 0) messages.push(user(parts(rest)));
  }
  return { systemPrompt, tools: list(b.tools).map((t) => tool(t.name, t.description, t.input_schema)), messages };
}

function chatView(b: Json): RequestView {
  let systemPrompt = '';
  const messages: Message[] = [];
  for (const message of list(b.messages)) {
    if (message.role === 'system' || message.role === 'developer') systemPrompt += parts(message.content).map((p) => (p.type === 'text' ? p.text : '')).join('');
    else if (message.role === 'user') messages.push(user(parts(message.content)));
    else if (message.role === 'tool') messages.push(result('', parts(message.content)));
    else if (message.role === 'assistant') {
      const content: AssistantMessage['content'] = [];
      if (typeof message.reasoning_content === 'string') content.push({ type: 'thinking', thinking: message.reasoning_content });
      content.push(...parts(message.content).filter((p): p is TextContent => p.type === 'text'));
      for (const call of list(message.tool_calls)) {
        const fn = (call.function ?? {}) as Json;
        content.push(toolCall(str(fn.name), parsedArguments(fn.arguments)));
      }
      messages.push(assistant(content));
    }
  }
  const tools = list(b.tools).map((t) => {
    const fn = (t.function ?? {}) as Json;
    return tool(fn.name, fn.description, fn.parameters);
  });
  return { systemPrompt, tools, messages };
}

function responsesView(b: Json): RequestView {
  let systemPrompt = str(b.instructions);
  const messages: Message[] = [];
  const items = typeof b.input === 'string' ? [{ role: 'user', content: b.input }] : list(b.input);
  for (const item of items) {
    if (item.type === 'function_call') messages.push(assistant([toolCall(str(item.name), parsedArguments(item.arguments))]));
    else if (item.type === 'function_call_output') messages.push(result('', parts(item.output)));
    else if (item.type === 'reasoning') {
      messages.push(assistant(list(item.summary).map((s) => ({ type: 'thinking' as const, thinking: str(s.text) }))));
    } else if (item.role === 'system' || item.role === 'developer') {
      systemPrompt += parts(item.content).map((p) => (p.type === 'text' ? p.text : '')).join('');
    } else if (item.role === 'assistant') {
      messages.push(assistant(parts(item.content).filter((p): p is TextContent => p.type === 'text')));
    } else if (item.role === 'user') {
      messages.push(user(parts(item.content)));
    }
  }
  return { systemPrompt, tools: list(b.tools).map((t) => tool(t.name, t.description, t.parameters)), messages };
}

function geminiView(b: Json): RequestView {
  const instruction = b.systemInstruction;
  const systemPrompt =
    typeof instruction === 'string' ? instruction : list((instruction as Json | undefined)?.parts).map((p) => str(p.text)).join('');
  const messages: Message[] = [];
  for (const content of list(b.contents)) {
    const partsOf = list(content.parts);
    if (content.role === 'model') {
      messages.push(assistant(partsOf.flatMap((part): AssistantMessage['content'] => {
        if (part.functionCall) {
          const call = part.functionCall as Json;
          return [toolCall(str(call.name), call.args)];
        }
        if (typeof part.text === 'string') return [part.thought ? { type: 'thinking', thinking: part.text } : text(part.text)];
        return [];
      })));
      continue;
    }
    const rest: (TextContent | ImageContent)[] = [];
    for (const part of partsOf) {
      if (part.functionResponse) {
        const response = ((part.functionResponse as Json).response ?? {}) as Json;
        const output = response.output ?? response.error ?? response;
        messages.push(result('', [text(typeof output === 'string' ? output : JSON.stringify(output))]));
      } else if (typeof part.text === 'string') rest.push(text(part.text));
      else if (part.inlineData) rest.push(IMAGE);
    }
    if (rest.length > 0) messages.push(user(rest));
  }
  const tools = list(b.tools).flatMap((group) =>
    list(group.functionDeclarations).map((t) => tool(t.name, t.description, t.parameters ?? t.parametersJsonSchema)),
  );
  return { systemPrompt, tools, messages };
}
