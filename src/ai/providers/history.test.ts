// What each adapter sends back after a tool round: the previous reply (thinking, two calls), an image in the user
// message, a successful result with an image and a failed result.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../../e2e/mock-provider/server';
import { stream } from '../stream';
import type { AssistantMessage, Message, Model, ToolCall, ToolResultMessage } from '../types';
import { FAST_RETRY, PROVIDER_CASES, READ_TOOL, BASH_TOOL, collect } from '../testing/providers';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** Runs a thinking + two-call turn, answers both calls (one with an image, one failing), and runs the next turn. */
async function toolRound(model: Model): Promise<{ first: AssistantMessage; calls: ToolCall[]; body: Record<string, unknown> }> {
  mock.setScript([
    { content: [
      { type: 'thinking', thinking: 'I should look at both.', signature: 'SIG-1' },
      { type: 'toolCall', name: 'read', arguments: { path: 'shot.png' }, signature: 'CALL-SIG' },
      { type: 'toolCall', name: 'bash', arguments: { command: 'cat missing.txt' } },
    ] },
    { when: { lastToolResultContains: 'No such file' }, content: [{ type: 'text', text: 'The file is missing.' }] },
  ]);
  const user: Message = {
    role: 'user',
    content: [{ type: 'text', text: 'What is in this picture?' }, { type: 'image', data: PNG, mimeType: 'image/png' }],
    timestamp: 1,
  };
  const options = { apiKey: 'k', thinking: 'medium' as const, ...FAST_RETRY };
  const request = { systemPrompt: 'sys', messages: [user], tools: [READ_TOOL, BASH_TOOL] };
  const { message: first } = await collect(stream(model, request, options));
  expect(first.stopReason).toBe('toolUse');
  const calls = first.content.filter((b): b is ToolCall => b.type === 'toolCall');
  const results: ToolResultMessage[] = [
    { role: 'toolResult', toolCallId: calls[0].id, toolName: 'read', isError: false, timestamp: 2,
      content: [{ type: 'text', text: 'Read image shot.png' }, { type: 'image', data: PNG, mimeType: 'image/png' }] },
    { role: 'toolResult', toolCallId: calls[1].id, toolName: 'bash', isError: true, timestamp: 3,
      content: [{ type: 'text', text: 'cat: missing.txt: No such file or directory' }] },
  ];
  const { message: second } = await collect(stream(model, { ...request, messages: [user, first, ...results] }, options));
  expect(second.content).toEqual([{ type: 'text', text: 'The file is missing.' }]);
  expect(mock.requests).toHaveLength(2);
  return { first, calls, body: mock.requests[1].body as Record<string, unknown> };
}

const modelFor = (name: string) => PROVIDER_CASES.find((c) => c.name.startsWith(name))!.model(mock.url);

describe('history sent back after a tool round', () => {
  it('anthropic: signed thinking, tool_use ids, is_error and images inside tool_result', async () => {
    const { calls, body } = await toolRound(modelFor('anthropic'));
    const messages = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } });
    expect(messages[1].content[0]).toEqual({ type: 'thinking', thinking: 'I should look at both.', signature: 'SIG-1' });
    expect(messages[1].content.slice(1)).toEqual([
      { type: 'tool_use', id: calls[0].id, name: 'read', input: { path: 'shot.png' } },
      { type: 'tool_use', id: calls[1].id, name: 'bash', input: { command: 'cat missing.txt' } },
    ]);
    const [ok, failed] = messages[2].content;
    expect(ok).toMatchObject({ type: 'tool_result', tool_use_id: calls[0].id, is_error: false,
      content: [{ type: 'text', text: 'Read image shot.png' }, { type: 'image', source: { data: PNG } }] });
    expect(failed).toMatchObject({ type: 'tool_result', tool_use_id: calls[1].id, is_error: true,
      content: [{ type: 'text', text: 'cat: missing.txt: No such file or directory' }] });
    expect(body.system).toEqual([{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }]);
    expect((body.tools as { input_schema: { type: string } }[])[0].input_schema.type).toBe('object');
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(mock.requests[1].headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    // Anthropic API keys go in x-api-key; a bearer Authorization header is for OAuth tokens and is not sent.
    expect(mock.requests[1].headers['x-api-key']).toBe('k');
    expect(mock.requests[1].headers.authorization).toBeUndefined();
    expect(mock.requests[1].headers['anthropic-version']).toBeTruthy();
  });

  it('openai responses: reasoning item with encrypted content, call ids, error text, image in the output', async () => {
    const { calls, body } = await toolRound(modelFor('openai (responses)'));
    const input = body.input as Record<string, unknown>[];
    expect(input.map((i) => i.type ?? i.role)).toEqual(['user', 'reasoning', 'function_call', 'function_call', 'function_call_output', 'function_call_output']);
    expect(input[0].content).toEqual([
      { type: 'input_text', text: 'What is in this picture?' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
    ]);
    expect(input[1]).toMatchObject({ type: 'reasoning', encrypted_content: 'SIG-1' });
    const [callId, itemId] = calls[0].id.split('|');
    expect(input[2]).toEqual({ type: 'function_call', call_id: callId, id: itemId, name: 'read', arguments: '{"path":"shot.png"}' });
    expect(input[4]).toEqual({ type: 'function_call_output', call_id: callId, output: [
      { type: 'input_text', text: 'Read image shot.png' },
      { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
    ] });
    expect(input[5]).toEqual({ type: 'function_call_output', call_id: calls[1].id.split('|')[0],
      output: 'Error: cat: missing.txt: No such file or directory' });
    expect(body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'], instructions: 'sys',
      reasoning: { effort: 'medium', summary: 'auto' } });
    expect(mock.requests[1].headers.authorization).toBe('Bearer k');
  });

  it('openai responses: a thinking + text turn goes back as the reasoning item and the message item it preceded', async () => {
    mock.setScript([
      { content: [{ type: 'thinking', thinking: 'Greet back.', signature: 'ENC-1' }, { type: 'text', text: 'Hello!' }] },
      { content: [{ type: 'text', text: 'Fine.' }] },
    ]);
    const model = modelFor('openai (responses)');
    const options = { apiKey: 'k', thinking: 'low' as const, ...FAST_RETRY };
    const user: Message = { role: 'user', content: 'hi', timestamp: 1 };
    const { message: first } = await collect(stream(model, { systemPrompt: 's', messages: [user], tools: [] }, options));
    const next: Message = { role: 'user', content: 'how are you?', timestamp: 2 };
    await collect(stream(model, { systemPrompt: 's', messages: [user, first, next], tools: [] }, options));
    const input = (mock.requests[1].body as { input: Record<string, unknown>[] }).input;
    expect(input.map((i) => i.type ?? i.role)).toEqual(['user', 'reasoning', 'message', 'user']);
    expect(input[1]).toEqual({ type: 'reasoning', id: expect.stringMatching(/^rs_/), encrypted_content: 'ENC-1',
      summary: [{ type: 'summary_text', text: 'Greet back.' }] });
    expect(input[2]).toEqual({ type: 'message', role: 'assistant', id: expect.stringMatching(/^msg_/), status: 'completed',
      content: [{ type: 'output_text', text: 'Hello!', annotations: [] }] });
  });

  it('chat completions: no reasoning sent back, tool messages, error text, images after the tool messages', async () => {
    const { calls, body } = await toolRound(modelFor('openai-compatible'));
    const messages = body.messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages[2]).toEqual({ role: 'assistant', content: null, tool_calls: [
      { id: calls[0].id, type: 'function', function: { name: 'read', arguments: '{"path":"shot.png"}' } },
      { id: calls[1].id, type: 'function', function: { name: 'bash', arguments: '{"command":"cat missing.txt"}' } },
    ] });
    expect(messages[3]).toMatchObject({ tool_call_id: calls[0].id, content: expect.stringContaining('Read image shot.png') });
    expect(messages[4]).toEqual({ role: 'tool', tool_call_id: calls[1].id, content: 'Error: cat: missing.txt: No such file or directory' });
    expect(messages[5].content).toContainEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } });
    expect(JSON.stringify(messages)).not.toContain('I should look at both');
  });

  it('gemini: a thought signature that came on a text part goes back on that text part', async () => {
    mock.setScript([
      { content: [{ type: 'text', text: 'The answer is 4.', signature: 'TEXT-SIG' }] },
      { content: [{ type: 'text', text: 'Fine.' }] },
    ]);
    const model = modelFor('google');
    const options = { apiKey: 'k', ...FAST_RETRY };
    const user: Message = { role: 'user', content: '2+2?', timestamp: 1 };
    const { message: first } = await collect(stream(model, { systemPrompt: 's', messages: [user], tools: [] }, options));
    expect(first.content.filter((b) => b.type === 'text').map((b) => (b.type === 'text' ? b.text : '')).join('')).toBe('The answer is 4.');
    const next: Message = { role: 'user', content: 'thanks', timestamp: 2 };
    await collect(stream(model, { systemPrompt: 's', messages: [user, first, next], tools: [] }, options));
    const contents = (mock.requests[1].body as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1].parts).toEqual([{ text: 'The answer is 4.', thoughtSignature: 'TEXT-SIG' }]);
    // Another model never sees it.
    const other = modelFor('anthropic');
    mock.setScript([{ content: [{ type: 'text', text: 'ok' }] }]);
    await collect(stream(other, { systemPrompt: 's', messages: [user, first, next], tools: [] }, options));
    expect(JSON.stringify(mock.requests[2].body)).not.toContain('TEXT-SIG');
  });

  it('gemini: thought and call signatures, functionResponse output/error, inlineData images', async () => {
    const { body } = await toolRound(modelFor('google'));
    const contents = body.contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: PNG } });
    expect(contents[1].parts[0]).toEqual({ text: 'I should look at both.', thought: true, thoughtSignature: 'SIG-1' });
    expect(contents[1].parts[1]).toEqual({ functionCall: { name: 'read', args: { path: 'shot.png' } }, thoughtSignature: 'CALL-SIG' });
    expect(contents[1].parts[2]).toEqual({ functionCall: { name: 'bash', args: { command: 'cat missing.txt' } } });
    expect(contents[2].parts).toEqual([
      { functionResponse: { name: 'read', response: { output: 'Read image shot.png' } } },
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { functionResponse: { name: 'bash', response: { error: 'cat: missing.txt: No such file or directory' } } },
    ]);
    const declarations = (body.tools as { functionDeclarations: Record<string, unknown>[] }[])[0].functionDeclarations;
    expect(declarations[1].parameters).toEqual({
      type: 'OBJECT', required: ['command'],
      properties: { command: { type: 'STRING' }, mode: { type: 'STRING', enum: ['fast', 'slow'] } },
    });
    expect(mock.requests[1].headers['x-goog-api-key']).toBe('k');
  });
});
