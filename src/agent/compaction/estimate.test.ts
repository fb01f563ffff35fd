import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { Message, Tool } from '../../ai/types';
import { ContextTokenCounter } from './context-tokens';
import { estimateMessageTokens, estimateRequestTokens } from './estimate';
import { call, calls, reply, result, user } from './testing/transcripts';

const tools: Tool[] = [{ name: 'read', description: 'Read a file', parameters: Type.Object({ path: Type.String() }) }];
const toolChars = 'read'.length + 'Read a file'.length + JSON.stringify(tools[0].parameters).length;

describe('the estimator', () => {
  it('counts characters / 4, an image as 1,200 tokens, and a tool call as its name plus JSON arguments', () => {
    expect(estimateMessageTokens(user('a'.repeat(400)))).toBe(100);
    expect(estimateMessageTokens(user('abc'))).toBe(1); // rounded up: a message is never free
    const withImage: Message = { role: 'user', content: [{ type: 'text', text: 'x'.repeat(40) }, { type: 'image', data: 'A'.repeat(99_999), mimeType: 'image/png' }], timestamp: 0 };
    expect(estimateMessageTokens(withImage)).toBe(10 + 1_200);
    const args = { path: 'src/a.ts', offset: 10 };
    expect(estimateMessageTokens(calls(call('c1', 'read', args)))).toBe(Math.ceil(('read'.length + JSON.stringify(args).length) / 4));
    const thinking: Message = { ...reply('done'), content: [{ type: 'thinking', thinking: 't'.repeat(80) }, { type: 'text', text: 'x'.repeat(20) }] };
    expect(estimateMessageTokens(thinking)).toBe(25);
  });

  it('covers the system prompt, the tool schemas and every message before any usage is known', () => {
    const messages = [user('a'.repeat(40)), result('c1', 'b'.repeat(400))];
    const expected = Math.ceil(200 / 4) + Math.ceil(toolChars / 4) + 10 + 100;
    expect(estimateRequestTokens({ systemPrompt: 's'.repeat(200), tools, messages })).toBe(expected);
    expect(new ContextTokenCounter().contextTokens({ systemPrompt: 's'.repeat(200), tools, messages })).toBe(expected);
  });
});

describe('context tokens', () => {
  const counter = () => new ContextTokenCounter();

  it('is the last successful reply\'s usage plus an estimate of the messages after it', () => {
    const answered = { ...reply('ok'), usage: { input: 5_000, output: 300, cacheRead: 1_000, cacheWrite: 200, cost: { total: 0 } } };
    const messages = [user('x'.repeat(4_000)), answered, user('y'.repeat(400)), result('c', 'z'.repeat(800))];
    // The system prompt and the first message are inside the usage already; only the later two are estimated.
    expect(counter().contextTokens({ systemPrompt: 'long '.repeat(1_000), tools, messages })).toBe(6_500 + 100 + 200);
  });

  it('ignores failed and aborted replies and replies without usage', () => {
    const failed = { ...reply(''), stopReason: 'error' as const, usage: { input: 9_999, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } } };
    const good = { ...reply('ok'), usage: { input: 1_000, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } } };
    const messages = [user('hi'), good, user('x'.repeat(40)), failed, reply('no usage')];
    expect(counter().contextTokens({ systemPrompt: '', tools: [], messages })).toBe(1_010 + 10 + 0 + 2);
  });

  it('does not trust usage from before the point a compaction changed the context', () => {
    const stale = reply('kept from before the compaction', 50_000);
    const messages = [user('summary '.repeat(10)), stale, user('next')];
    const c = counter();
    expect(c.contextTokens({ systemPrompt: '', tools: [], messages, usageFrom: 0 })).toBeGreaterThan(50_000);
    expect(c.contextTokens({ systemPrompt: '', tools: [], messages, usageFrom: 3 })).toBe(
      messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0),
    );
  });

  it('gives the same figure incrementally as from scratch while a transcript grows', () => {
    const c = counter();
    const messages: Message[] = [];
    for (let i = 0; i < 200; i++) {
      messages.push(i % 2 ? result(`c${i}`, 'r'.repeat(i * 7)) : user('u'.repeat(i * 3)));
      const incremental = c.contextTokens({ systemPrompt: 'sys', tools, messages });
      expect(incremental).toBe(estimateRequestTokens({ systemPrompt: 'sys', tools, messages }));
    }
  });
});
