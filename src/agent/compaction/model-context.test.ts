import { describe, expect, it } from 'vitest';
import type { CompactionEntry, Message } from '../../ai/types';
import { buildModelContext, summaryMessage, SUMMARY_PREFIX } from './model-context';
import { reply, turn, user } from './testing/transcripts';

function compaction(summary: string, firstKeptSeq: number, atSeq: number, files: Partial<CompactionEntry> = {}): CompactionEntry {
  return { type: 'compaction', summary, firstKeptSeq, atSeq, tokensBefore: 10_000, tokensAfter: 2_000, readFiles: [], modifiedFiles: [], timestamp: 7, ...files };
}

const session: Message[] = [...turn(0, 50), ...turn(1, 50), ...turn(2, 50), ...turn(3, 50)]; // 16 messages

describe("the model's view", () => {
  it('is the whole transcript before any compaction, each message with its seq', () => {
    const view = buildModelContext(session, []);
    expect(view.messages).toEqual(session);
    expect(view.seqs).toEqual(session.map((_, seq) => seq));
    expect(view).toMatchObject({ nextSeq: 16, usageFrom: 0, compaction: undefined });
  });

  it('after a compaction: one user message with the summary and file lists, then the messages from firstKeptSeq on', () => {
    const entry = compaction('## Goal\nShip it', 8, 12, { readFiles: ['a.ts'], modifiedFiles: ['b.ts'] });
    const view = buildModelContext(session, [entry]);
    expect(view.messages[0]).toEqual({
      role: 'user',
      content: `${SUMMARY_PREFIX}\n\n## Goal\nShip it\n\nFiles read:\n- a.ts\n\nFiles modified:\n- b.ts`,
      timestamp: 7,
    });
    expect(view.messages.slice(1)).toEqual(session.slice(8));
    expect(view.seqs).toEqual([-1, 8, 9, 10, 11, 12, 13, 14, 15]);
    // Replies kept from before the compaction (seq 8–11) answered a longer context: usage counts from seq 12 on.
    expect(view.usageFrom).toBe(5);
  });

  it('uses the latest compaction, and keeps the person\'s transcript untouched', () => {
    const copy = structuredClone(session);
    const view = buildModelContext(session, [compaction('first', 4, 8), compaction('second', 12, 14)]);
    expect(view.compaction?.summary).toBe('second');
    expect(view.messages.slice(1)).toEqual(session.slice(12));
    expect(session).toEqual(copy);
  });

  it('rebuilds a fork or restore before a compaction from the compactions preceding that point only', () => {
    const entries = [compaction('first', 4, 8), compaction('second', 12, 14)];
    expect(buildModelContext(session, entries, 12)).toMatchObject({ compaction: entries[0], nextSeq: 12 });
    expect(buildModelContext(session, entries, 12).messages.slice(1)).toEqual(session.slice(4, 12));
    expect(buildModelContext(session, entries, 8).compaction).toBe(entries[0]);
    expect(buildModelContext(session, entries, 7).messages).toEqual(session.slice(0, 7));
  });

  it('leaves out a reply that failed before producing anything, but keeps failed replies with tool calls', () => {
    const failed = { ...reply(''), content: [], stopReason: 'error' as const, errorMessage: 'overloaded' };
    const messages = [user('go'), failed, user('again')];
    const view = buildModelContext(messages, []);
    expect(view.messages).toEqual([messages[0], messages[2]]);
    expect(view.seqs).toEqual([0, 2]);
  });

  it('writes no file lists when there are none', () => {
    expect(summaryMessage(compaction('Just this.', 0, 0)).content).toBe(`${SUMMARY_PREFIX}\n\nJust this.`);
  });
});
