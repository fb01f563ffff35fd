// Replaying a Responses turn with store: false: the API pairs a reasoning item with the item that followed it, by id.
import { describe, expect, it } from 'vitest';
import { customModel } from '../models';
import type { AssistantMessage, Message } from '../types';
import { responsesInput } from './openai-responses';

const gpt = customModel('openai', 'gpt-5');
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const reply = (content: AssistantMessage['content']): AssistantMessage => ({
  role: 'assistant', provider: 'openai', model: 'gpt-5', content, usage, stopReason: 'stop', timestamp: 1,
});
const reasoning = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'ENC', ...extra });
const user: Message = { role: 'user', content: 'go', timestamp: 0 };
const call = { type: 'toolCall' as const, id: 'call_1|fc_1', name: 'bash', arguments: { command: 'ls' } };

describe('Responses replay', () => {
  it('sends a reasoning item and the function call it precedes, with both ids', () => {
    const input = responsesInput([user, reply([{ type: 'thinking', thinking: 'plan', signature: reasoning() }, call])], gpt);
    expect(input.slice(1)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'ENC' },
      { type: 'function_call', call_id: 'call_1', id: 'fc_1', name: 'bash', arguments: '{"command":"ls"}' },
    ]);
  });

  it('sends the message that followed a reasoning item as an output message with its id', () => {
    const thinking = { type: 'thinking' as const, thinking: 'plan', signature: reasoning({ next_message_id: 'msg_1' }) };
    const input = responsesInput([user, reply([thinking, { type: 'text', text: 'Hello.' }])], gpt);
    expect(input.slice(1)).toEqual([
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'plan' }], encrypted_content: 'ENC' },
      { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Hello.', annotations: [] }] },
    ]);
  });

  it('drops a reasoning item whose following message id is unknown, rather than send an unpaired one', () => {
    const input = responsesInput([user, reply([{ type: 'thinking', thinking: 'plan', signature: reasoning() }, { type: 'text', text: 'Hello.' }])], gpt);
    expect(input.slice(1)).toEqual([{ role: 'assistant', content: 'Hello.' }]);
  });

  it('never sends a reasoning item without encrypted content (nothing is stored server-side), nor the call ids paired with it', () => {
    const unencrypted = JSON.stringify({ type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: null });
    const input = responsesInput([user, reply([{ type: 'thinking', thinking: '', signature: unencrypted }, call])], gpt);
    expect(input.slice(1)).toEqual([{ type: 'function_call', call_id: 'call_1', name: 'bash', arguments: '{"command":"ls"}' }]);
  });
});
