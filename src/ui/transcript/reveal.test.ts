import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { assistant, call, result, user } from '../../store/testing/messages';
import { rowShowing } from './reveal';

describe('rowShowing', () => {
  const transcript: Message[] = [user('a'), assistant([call('x'), call('y')]), result('x'), result('y'), assistant('done'), user('b')];
  const rows = transcript.filter((m) => m.role !== 'toolResult');

  it('is the message’s own row, or for a tool result the reply that made the call', () => {
    expect([0, 1, 2, 3, 4, 5].map((seq) => rowShowing(transcript, rows, seq))).toEqual([0, 1, 1, 1, 2, 3]);
  });

  it('is -1 for a seq the transcript does not have, or a result without its call', () => {
    expect(rowShowing(transcript, rows, 9)).toBe(-1);
    expect(rowShowing([result('lost')], [], 0)).toBe(-1);
  });
});
