import { describe, expect, it } from 'vitest';
import type { AssistantMessage, CompactionEntry, Message } from '../../ai/types';
import { indexSteps, nextUserStep } from './steps';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 1 });
const reply = (content: AssistantMessage['content']): Message => ({ role: 'assistant', content, provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 1 });
const result = (id: string): Message => ({ role: 'toolResult', toolCallId: id, toolName: 'write', content: [], isError: false, timestamp: 1 });
const compaction = (atSeq: number): CompactionEntry => ({
  type: 'compaction', atSeq, summary: `summary at ${atSeq}`, firstKeptSeq: atSeq, tokensBefore: 1, tokensAfter: 1, usage, readFiles: [], modifiedFiles: [], timestamp: 1,
});

describe('indexSteps', () => {
  const messages: Message[] = [
    user('one'),
    reply([{ type: 'text', text: 'I will write' }, { type: 'toolCall', id: 'a', name: 'write', arguments: { path: 'x', content: '1' } }]),
    result('a'),
    reply([{ type: 'text', text: 'done' }]),
    user('two'),
    reply([{ type: 'toolCall', id: 'b', name: 'bash', arguments: { command: 'ls' } }]),
    result('b'),
    reply([{ type: 'text', text: 'listed' }]),
  ];

  it('makes a step of each user message, each reply that says something and each tool call, in order', () => {
    const steps = indexSteps(messages);
    expect(steps.map((s) => `${s.kind}@${s.seq}`)).toEqual(['user@0', 'assistant@1', 'tool@1', 'assistant@3', 'user@4', 'tool@5', 'assistant@7']);
    expect(steps.map((s) => s.turn)).toEqual([0, 0, 0, 0, 4, 4, 4]);
    const tool = steps[2];
    expect(tool.kind === 'tool' && tool.resultSeq).toBe(2);
  });

  it('puts a compaction divider before the message it was made at, with its summary', () => {
    const steps = indexSteps(messages, [compaction(4)]);
    expect(steps.map((s) => s.kind)).toEqual(['user', 'assistant', 'tool', 'assistant', 'compaction', 'user', 'tool', 'assistant']);
    const divider = steps[4];
    expect(divider.kind === 'compaction' && divider.compaction.summary).toBe('summary at 4');
    expect(divider.seq).toBe(3); // the conversation shows everything before it
  });

  it('keeps a compaction made at the very end as the last step', () => {
    const steps = indexSteps(messages, [compaction(messages.length)]);
    expect(steps.at(-1)?.kind).toBe('compaction');
    expect(steps.at(-1)?.seq).toBe(messages.length - 1);
  });

  it('finds the next user step', () => {
    const steps = indexSteps(messages);
    expect(nextUserStep(steps, 0)).toBe(4);
    expect(nextUserStep(steps, 4)).toBe(-1);
  });

  it('indexes 5,000 messages quickly', () => {
    const many: Message[] = [];
    for (let i = 0; i < 1250; i++) many.push(user(`p${i}`), reply([{ type: 'toolCall', id: `c${i}`, name: 'read', arguments: { path: 'a' } }]), result(`c${i}`), reply([{ type: 'text', text: 'ok' }]));
    const start = performance.now();
    const steps = indexSteps(many);
    expect(performance.now() - start).toBeLessThan(100);
    expect(steps).toHaveLength(3750);
  });
});
