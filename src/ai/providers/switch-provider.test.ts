// A session started on one provider continues on another: ids stay valid and paired, thinking is not replayed as
// signed thinking to a model that did not produce it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../../e2e/mock-provider/server';
import { stream } from '../stream';
import type { AssistantMessage, Message, Model, ToolCall } from '../types';
import { FAST_RETRY, PROVIDER_CASES, collect, userRequest } from '../testing/providers';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());

const modelFor = (name: string): Model => PROVIDER_CASES.find((c) => c.name.startsWith(name))!.model(mock.url);
const options = { apiKey: 'k', thinking: 'low' as const, ...FAST_RETRY };

async function turnWithCall(model: Model, history: Message[], thinking: string, command: string): Promise<Message[]> {
  mock.reset();
  mock.setScript([{ content: [
    { type: 'thinking', thinking, signature: `sig-${model.provider}` },
    { type: 'toolCall', name: 'bash', arguments: { command } },
  ] }]);
  const { message } = await collect(stream(model, { ...userRequest('go'), messages: history }, options));
  expect(message.stopReason).toBe('toolUse');
  const call = message.content.find((b): b is ToolCall => b.type === 'toolCall')!;
  return [...history, message, { role: 'toolResult', toolCallId: call.id, toolName: 'bash', content: [{ type: 'text', text: `ran ${command}` }], isError: false, timestamp: 2 }];
}

it('continues a session across Anthropic -> OpenAI Responses -> Gemini -> Chat Completions -> Anthropic', async () => {
  let history: Message[] = [{ role: 'user', content: 'start', timestamp: 1 }];
  history = await turnWithCall(modelFor('anthropic'), history, 'claude thinks', 'one');
  history = await turnWithCall(modelFor('openai (responses)'), history, 'gpt thinks', 'two');
  history = await turnWithCall(modelFor('google'), history, 'gemini thinks', 'three');
  history = await turnWithCall(modelFor('openai-compatible'), history, 'local thinks', 'four');

  mock.reset();
  mock.setScript([{ content: [{ type: 'text', text: 'back on Claude' }] }]);
  const { message } = await collect(stream(modelFor('anthropic'), { ...userRequest('go'), messages: history }, options));
  expect(message.content).toEqual([{ type: 'text', text: 'back on Claude' }]);

  const sent = (mock.requests[0].body as { messages: { role: string; content: Record<string, string>[] }[] }).messages;
  const uses = sent.flatMap((m) => m.content.filter((b) => b.type === 'tool_use'));
  const results = sent.flatMap((m) => m.content.filter((b) => b.type === 'tool_result'));
  expect(uses).toHaveLength(4);
  // Every id matches Anthropic's alphabet and its result carries the same id, whichever provider issued it.
  for (const [i, use] of uses.entries()) {
    expect(use.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(results[i].tool_use_id).toBe(use.id);
  }
  // Only Claude's own thinking goes back as a signed block; the others' arrives as plain text.
  const thinkingBlocks = sent.flatMap((m) => m.content.filter((b) => b.type === 'thinking'));
  expect(thinkingBlocks).toEqual([{ type: 'thinking', thinking: 'claude thinks', signature: 'sig-anthropic' }]);
  const texts = sent.flatMap((m) => (m.role === 'assistant' ? m.content.filter((b) => b.type === 'text').map((b) => b.text) : []));
  expect(texts).toEqual(['gpt thinks', 'gemini thinks', 'local thinks']);
  // The loop being finished was started by another model, so its turn cannot open with a signed thinking block.
  expect((mock.requests[0].body as { thinking?: unknown }).thinking).toBeUndefined();
});

it('sends no foreign reasoning items or signatures to OpenAI or Gemini', async () => {
  let history: Message[] = [{ role: 'user', content: 'start', timestamp: 1 }];
  history = await turnWithCall(modelFor('anthropic'), history, 'claude thinks', 'one');
  const longId: AssistantMessage = {
    ...(history[1] as AssistantMessage),
    content: [{ type: 'toolCall', id: `call_${'x'.repeat(80)}|fc_${'y'.repeat(40)}`, name: 'bash', arguments: { command: 'two' } }],
  };
  history.push(longId, { role: 'toolResult', toolCallId: (longId.content[0] as ToolCall).id, toolName: 'bash', content: [], isError: true, timestamp: 3 });

  mock.reset();
  mock.setScript([{ content: [{ type: 'text', text: 'ok' }] }, { content: [{ type: 'text', text: 'ok' }] }, { content: [{ type: 'text', text: 'ok' }] }]);
  await collect(stream(modelFor('openai (responses)'), { ...userRequest('go'), messages: history }, options));
  const input = (mock.requests[0].body as { input: Record<string, unknown>[] }).input;
  expect(input.some((i) => i.type === 'reasoning')).toBe(false);
  const calls = input.filter((i) => i.type === 'function_call');
  const outputs = input.filter((i) => i.type === 'function_call_output');
  expect(calls.map((c) => c.call_id)).toEqual(outputs.map((o) => o.call_id));
  expect(calls.every((c) => c.id === undefined)).toBe(true);
  expect(outputs[1].output).toBe('Error: (no output)');

  await collect(stream(modelFor('openai-compatible'), { ...userRequest('go'), messages: history }, options));
  const chat = (mock.requests[1].body as { messages: { tool_calls?: { id: string }[]; tool_call_id?: string }[] }).messages;
  const chatIds = chat.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
  expect(chatIds.every((id) => id.length <= 40)).toBe(true);
  expect(chat.flatMap((m) => (m.tool_call_id ? [m.tool_call_id] : []))).toEqual(chatIds);

  await collect(stream(modelFor('google'), { ...userRequest('go'), messages: history }, options));
  const contents = JSON.stringify((mock.requests[2].body as { contents: unknown }).contents);
  expect(contents).not.toContain('thoughtSignature');
  expect(contents).not.toContain('"id"');
});
