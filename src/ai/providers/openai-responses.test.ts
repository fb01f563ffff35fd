// Responses API streams that leave out events our mock always sends: the adapter must not lose text or arguments.
import { expect, it } from 'vitest';
import { customModel } from '../models';
import { stream } from '../stream';
import { collect, userRequest } from '../testing/providers';

function serving(events: Record<string, unknown>[]): typeof fetch {
  const body = events.map((e, i) => `event: ${String(e.type)}\ndata: ${JSON.stringify({ ...e, sequence_number: i })}\n\n`).join('');
  return async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}
const model = { ...customModel('openai', 'gpt-5'), baseUrl: 'http://127.0.0.1:9/v1' };
const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
const completed = (output: unknown[]) => ({ type: 'response.completed', response: { id: 'r', object: 'response', status: 'completed', output, usage, error: null, incomplete_details: null } });

it('keeps text whose message item was never announced', async () => {
  const fetch = serving([
    { type: 'response.created', response: { id: 'r', status: 'in_progress', output: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hel' },
    { type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'lo' },
    completed([]),
  ]);
  const { message } = await collect(stream(model, userRequest('hi'), { apiKey: 'k', fetch }));
  expect(message.stopReason).toBe('stop');
  expect(message.content).toEqual([{ type: 'text', text: 'Hello' }]);
});

it('takes the arguments from function_call_arguments.done when no deltas or item.done came', async () => {
  const fetch = serving([
    { type: 'response.output_item.added', output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'read', arguments: '', status: 'in_progress' } },
    { type: 'response.function_call_arguments.done', item_id: 'fc_1', output_index: 0, arguments: '{"path":"a.ts"}' },
    completed([]),
  ]);
  const { message } = await collect(stream(model, userRequest('hi'), { apiKey: 'k', fetch }));
  expect(message.stopReason).toBe('toolUse');
  expect(message.content).toEqual([{ type: 'toolCall', id: 'call_1|fc_1', name: 'read', arguments: { path: 'a.ts' } }]);
});
