import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { Message, Tool } from '../../ai/types';
import { ContextTokenCounter, hasUsableUsage, usageTokens, type TokenCountInput } from './context-tokens';
import { estimateMessageTokens, estimateRequestTokens } from './estimate';
import { call, calls, reply, result, user } from './testing/transcripts';

const tools: Tool[] = [{ name: 'read', description: 'Read a file', parameters: Type.Object({ path: Type.String() }) }];

// The figure the file comment defines, computed from scratch with nothing remembered.
function fromScratch(input: TokenCountInput): number {
  const { messages } = input;
  for (let i = messages.length - 1; i >= (input.usageFrom ?? 0); i--) {
    const message = messages[i];
    if (hasUsableUsage(message)) return usageTokens(message) + messages.slice(i + 1).reduce((sum, m) => sum + estimateMessageTokens(m), 0);
  }
  return estimateRequestTokens(input);
}

// A reproducible mix of what a run appends: requests, tool calls and results, replies with and without usage, failures.
function nthMessage(n: number): Message {
  switch (n % 7) {
    case 0:
      return user('u'.repeat(n * 3));
    case 1:
      return calls(call(`c${n}`, 'read', { path: `f${n}.ts` }));
    case 2:
      return result(`c${n - 1}`, 'r'.repeat(n * 11));
    case 3:
      return reply('answer '.repeat(n % 5), n % 3 === 0 ? 0 : 1_000 + n); // every third reply reports no usage
    case 4:
      return { ...reply(''), stopReason: 'error', errorMessage: 'boom', usage: { ...reply('').usage, input: 99_999 } };
    case 5:
      return result(`c${n}`, 'x'.repeat(n));
    default:
      return { ...reply('cut'), stopReason: 'aborted', usage: { ...reply('').usage, input: 77_777 } };
  }
}

describe('the incremental count', () => {
  it('equals a count from scratch after every append, with and without usage, from any usageFrom', () => {
    for (const usageFrom of [0, 5, 40]) {
      const counter = new ContextTokenCounter();
      const messages: Message[] = [];
      for (let n = 0; n < 120; n++) {
        messages.push(nthMessage(n));
        if (n % 3 === 0) messages.push(nthMessage(n * 5 + 2)); // sometimes two appends between calls
        const input = { systemPrompt: 'sys', tools, messages, usageFrom };
        expect(counter.contextTokens(input)).toBe(fromScratch(input));
      }
    }
  });

  it('starts afresh on a compaction: a new array of a summary and the kept messages, with a new usageFrom', () => {
    const counter = new ContextTokenCounter();
    const messages: Message[] = [];
    for (let n = 0; n < 40; n++) {
      messages.push(nthMessage(n));
      counter.contextTokens({ systemPrompt: 'sys', tools, messages });
    }
    const compacted: Message[] = [user('The conversation before this point was compacted: ...'), ...messages.slice(30)];
    const usageFrom = compacted.length; // every kept reply answered the longer context
    let input = { systemPrompt: 'sys', tools, messages: compacted, usageFrom };
    expect(counter.contextTokens(input)).toBe(fromScratch(input));
    for (let n = 40; n < 60; n++) {
      compacted.push(nthMessage(n));
      input = { systemPrompt: 'sys', tools, messages: compacted, usageFrom };
      expect(counter.contextTokens(input)).toBe(fromScratch(input));
    }
    // The old array is still counted right (the meter may still hold it).
    const old = { systemPrompt: 'sys', tools, messages };
    expect(counter.contextTokens(old)).toBe(fromScratch(old));
  });

  it('starts afresh when the same array got shorter or its last message was replaced', () => {
    const counter = new ContextTokenCounter();
    const messages: Message[] = [];
    for (let n = 0; n < 30; n++) messages.push(nthMessage(n));
    const count = () => {
      const input = { systemPrompt: 'sys', tools, messages };
      expect(counter.contextTokens(input)).toBe(fromScratch(input));
    };
    count();
    messages[messages.length - 1] = reply('replaced', 12_345);
    count();
    messages[messages.length - 1] = user('replaced again, no usage');
    count();
    messages.length = 10;
    count();
    messages.push(nthMessage(100), nthMessage(101), nthMessage(102));
    count();
    messages.splice(5); // shorter, then grown past the old length with other messages
    for (let n = 200; n < 220; n++) messages.push(nthMessage(n));
    count();
  });

  it('keeps each array it counts apart, so the meter does not undo the guard\'s progress', () => {
    const counter = new ContextTokenCounter();
    const transcript: Message[] = [];
    for (let n = 0; n < 50; n++) {
      transcript.push(nthMessage(n));
      const view = { systemPrompt: 'sys', tools, messages: [user('summary'), ...transcript.slice(n >> 1)], usageFrom: 1 };
      expect(counter.contextTokens(view)).toBe(fromScratch(view));
      const run = { systemPrompt: 'sys', tools, messages: transcript };
      expect(counter.contextTokens(run)).toBe(fromScratch(run));
    }
  });

  it('reads only the messages appended since its last call on the same array', () => {
    const counter = new ContextTokenCounter();
    const backing: Message[] = [];
    let reads = 0;
    const messages = new Proxy(backing, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    for (let n = 0; n < 500; n++) messages.push(n % 2 ? result(`c${n}`, 'r') : user('u')); // no usage anywhere
    counter.contextTokens({ systemPrompt: '', tools: [], messages });
    reads = 0;
    messages.push(user('one more'), result('c', 'and another'));
    counter.contextTokens({ systemPrompt: '', tools: [], messages });
    expect(reads).toBeLessThan(10);
  });
});
