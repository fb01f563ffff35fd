// Chat Completions streams as OpenAI-compatible servers really send them, where they differ from OpenAI's own.
import { describe, expect, it } from 'vitest';
import { customModel } from '../models';
import { stream } from '../stream';
import { openAICompletionsParams } from './openai-completions';
import { collect, userRequest } from '../testing/providers';

/** A fetch that answers every request with these SSE `data:` payloads. */
function serving(payloads: unknown[]): typeof fetch {
  const body = payloads.map((p) => `data: ${typeof p === 'string' ? p : JSON.stringify(p)}\n\n`).join('');
  return async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}
const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  ({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
const model = customModel('openai-compatible', 'llama3.1', 'http://localhost:11434/v1');

describe('tool calls from compatible servers', () => {
  it('keeps calls apart when the server sends each whole, without an index', async () => {
    const fetch = serving([
      chunk({ role: 'assistant', content: '' }),
      chunk({ tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }] }),
      chunk({ tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"path":"b.ts"}' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    const { message } = await collect(stream(model, userRequest('read'), { fetch }));
    expect(message.stopReason).toBe('toolUse');
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'call_a', name: 'read', arguments: { path: 'a.ts' } },
      { type: 'toolCall', id: 'call_b', name: 'read', arguments: { path: 'b.ts' } },
    ]);
  });

  it('keeps calls apart when every call says index 0 but has its own id, and finish_reason is "stop"', async () => {
    const fetch = serving([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"a.ts"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] }),
      chunk({}, 'stop'),
      '[DONE]',
    ]);
    const { message } = await collect(stream(model, userRequest('read'), { fetch }));
    expect(message.stopReason).toBe('toolUse');
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'call_a', name: 'read', arguments: { path: 'a.ts' } },
      { type: 'toolCall', id: 'call_b', name: 'bash', arguments: { command: 'ls' } },
    ]);
  });
});

describe('the token limit parameter', () => {
  it('uses max_completion_tokens for OpenAI itself and max_tokens elsewhere', () => {
    const openai = customModel('openai-compatible', 'gpt-5-mini', 'https://api.openai.com/v1');
    expect(openAICompletionsParams(openai, userRequest('x'), { maxTokens: 500 })).toMatchObject({ max_completion_tokens: 500 });
    expect(openAICompletionsParams(openai, userRequest('x'), { maxTokens: 500 })).not.toHaveProperty('max_tokens');
    expect(openAICompletionsParams(model, userRequest('x'), { maxTokens: 500 })).toMatchObject({ max_tokens: 500 });
  });
});
