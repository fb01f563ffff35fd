import { describe, expect, it } from 'vitest';
import type { CompactionEntry, Message } from '../../ai/types';
import { calls, call, reply, result, user } from '../../agent/compaction/testing/transcripts';
import { isCompactionRow, transcriptRows } from './transcript-rows';

const compaction = (atSeq: number): CompactionEntry => ({
  type: 'compaction', summary: 's', firstKeptSeq: atSeq, atSeq, tokensBefore: 2, tokensAfter: 1, readFiles: [], modifiedFiles: [], timestamp: 1,
});

describe('transcript rows', () => {
  it('place each divider before the message at its atSeq, leave out tool results, and keep every message', () => {
    const messages: Message[] = [user('a'), calls(call('c', 'read', { path: 'x' })), result('c', 'out'), reply('b'), user('c')];
    const rows = transcriptRows(messages, [compaction(5), compaction(2)]);
    expect(rows.map((row) => (isCompactionRow(row) ? `compaction ${row.atSeq}` : row.role))).toEqual([
      'user', 'assistant', 'compaction 2', 'assistant', 'user', 'compaction 5',
    ]);
  });
});
