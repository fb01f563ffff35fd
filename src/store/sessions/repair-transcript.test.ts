import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { ABORTED_BY_RELOAD, repairTranscript } from './repair-transcript';
import { assistant, call, result, transcript, user } from '../testing/messages';

describe('repairTranscript', () => {
  it('returns a whole transcript unchanged (same array)', () => {
    const messages = transcript(3);
    expect(repairTranscript(messages)).toBe(messages);
  });

  it('answers every unanswered tool call right after its assistant message and existing results', () => {
    const messages: Message[] = [
      user('go'),
      assistant([call('a'), call('b'), call('c')]),
      result('b'),
      user('a steering message that arrived later'),
    ];
    const repaired = repairTranscript(messages);
    expect(repaired.map((m) => (m.role === 'toolResult' ? `result:${m.toolCallId}` : m.role))).toEqual([
      'user',
      'assistant',
      'result:b',
      'result:a',
      'result:c',
      'user',
    ]);
    const synthesized = repaired[3];
    expect(synthesized).toMatchObject({ role: 'toolResult', toolName: 'bash', isError: true });
    expect(synthesized.role === 'toolResult' && synthesized.content).toEqual([{ type: 'text', text: ABORTED_BY_RELOAD }]);
    expect(messages.length).toBe(4); // input not mutated
  });

  it('drops a trailing assistant message that received nothing', () => {
    const messages: Message[] = [user('go'), assistant([])];
    expect(repairTranscript(messages)).toEqual([user('go')]);
  });

  it('keeps an aborted assistant message with partial text, answering its tool calls', () => {
    const cut = { ...assistant([{ type: 'text', text: 'Let me' }, call('x')]), stopReason: 'aborted' as const };
    const repaired = repairTranscript([user('go'), cut]);
    expect(repaired).toHaveLength(3);
    expect(repaired[2]).toMatchObject({ toolCallId: 'x', isError: true });
  });
});
