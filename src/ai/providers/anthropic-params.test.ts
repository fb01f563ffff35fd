// What the Anthropic adapter asks for, checked against rules the real API enforces.
import { describe, expect, it } from 'vitest';
import { customModel } from '../models';
import type { AssistantMessage, Message } from '../types';
import { anthropicParams } from './anthropic';

const claude = customModel('anthropic', 'claude-haiku-4-5');
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const reply = (provider: string, model: string, content: AssistantMessage['content']): AssistantMessage => ({
  role: 'assistant', provider, model, content, usage, stopReason: 'toolUse', timestamp: 1,
});
const call = { type: 'toolCall' as const, id: 'call_1', name: 'bash', arguments: { command: 'ls' } };
const result: Message = { role: 'toolResult', toolCallId: 'call_1', toolName: 'bash', content: [{ type: 'text', text: 'a.ts' }], isError: false, timestamp: 2 };
const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 0 });
const params = (messages: Message[]) => anthropicParams(claude, { systemPrompt: 's', messages, tools: [] }, { thinking: 'low' });

describe('extended thinking and the tool loop', () => {
  it('leaves thinking off while finishing a tool loop another model started (the API demands a leading thinking block)', () => {
    const sent = params([user('go'), reply('openai', 'gpt-5', [{ type: 'thinking', thinking: 'gpt thought', signature: '{}' }, call]), result]);
    expect(sent.thinking).toBeUndefined();
    expect(sent.messages[1].content).toEqual([
      { type: 'text', text: 'gpt thought' },
      { type: 'tool_use', id: 'call_1', name: 'bash', input: { command: 'ls' } },
    ]);
  });

  it('keeps thinking on when Claude itself started the loop with a signed thinking block', () => {
    const own = reply('anthropic', 'claude-haiku-4-5', [{ type: 'thinking', thinking: 'mine', signature: 'SIG' }, call]);
    expect(params([user('go'), own, result]).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('keeps thinking on for a new prompt after a foreign tool loop has finished', () => {
    const history = [user('go'), reply('openai', 'gpt-5', [call]), result, reply('openai', 'gpt-5', [{ type: 'text', text: 'done' }]), user('next')];
    expect(params(history).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });
});
