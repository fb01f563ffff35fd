import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { findCutPoint, type CutOptions } from './cut-point';
import { estimateMessageTokens } from './estimate';
import { bulk, call, calls, reply, result, turn, user } from './testing/transcripts';

const cutOf = (messages: Message[], options: Partial<CutOptions> = {}) =>
  findCutPoint(messages, { from: 0, keepRecentTokens: 1_000, maxKeptTokens: 10_000, tokensOf: estimateMessageTokens, ...options });

/** Every tool result kept has its call kept too, and no call kept lost its result. */
function expectPairsIntact(messages: Message[], firstKept: number): void {
  const keptCalls = new Set<string>();
  for (const message of messages.slice(firstKept)) {
    if (message.role === 'assistant') for (const block of message.content) if (block.type === 'toolCall') keptCalls.add(block.id);
    if (message.role === 'toolResult') expect(keptCalls.has(message.toolCallId), `result ${message.toolCallId} without its call`).toBe(true);
  }
  expect(messages[firstKept]?.role).not.toBe('toolResult');
}

describe('the cut point', () => {
  it('keeps about keepRecentTokens, cutting at the start of a turn', () => {
    const messages = [...turn(1, 600), ...turn(2, 600), ...turn(3, 600)];
    const cut = cutOf(messages, { keepRecentTokens: 1_000 });
    // Turn 3 alone is ~620 tokens; with turn 2 it is over 1,000, so the cut falls inside turn 2 and moves forward.
    expect(cut).not.toBeNull();
    expectPairsIntact(messages, cut!.firstKept);
    const kept = messages.slice(cut!.firstKept).reduce((sum, m) => sum + estimateMessageTokens(m), 0);
    expect(kept).toBeLessThanOrEqual(1_000);
    expect(messages[cut!.firstKept]).toBe(messages[8]); // turn 3's request
    expect(cut!.turnStart).toBeUndefined();
  });

  it('never separates a tool call from its result, even with many results after one call message', () => {
    const parallel = calls(call('a', 'read', { path: 'a' }), call('b', 'read', { path: 'b' }), call('c', 'read', { path: 'c' }));
    const messages = [user('go'), reply('looking'), parallel, result('a', bulk(400)), result('b', bulk(400)), result('c', bulk(400)), reply('done')];
    for (const keep of [10, 300, 500, 900, 1_300]) {
      const cut = cutOf(messages, { keepRecentTokens: keep });
      if (cut) expectPairsIntact(messages, cut.firstKept);
    }
    // Reaching into the results moves the cut to the next message that may start the kept part, not into the batch.
    expect(cutOf(messages, { keepRecentTokens: 500 })?.firstKept).toBe(6);
  });

  it('keeps the call with its results when only results follow the point reached', () => {
    const messages = [user('go'), reply('first'), calls(call('a', 'read', { path: 'a' })), result('a', bulk(2_000))];
    const cut = cutOf(messages, { keepRecentTokens: 1_000 });
    expect(cut).toEqual({ firstKept: 2, turnStart: 0 });
  });

  it('summarises the earlier part of a turn on its own when the cut falls inside it', () => {
    const messages = [
      ...turn(1, 300),
      user('refactor the parser'),
      calls(call('a', 'read', { path: 'parser.ts' })),
      result('a', bulk(800)),
      calls(call('b', 'edit', { path: 'parser.ts' })),
      result('b', 'edited'),
      reply('Parser refactored.'),
    ];
    const cut = cutOf(messages, { keepRecentTokens: 100 });
    expect(cut).toEqual({ firstKept: 7, turnStart: 4 });
    expectPairsIntact(messages, 7);
  });

  it('counts an image as 1,200 tokens when walking back', () => {
    const image: Message = { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }], timestamp: 0 };
    const messages = [user('start'), reply('ok'), image, reply('I see a chart.')];
    // The image message alone passes 1,000 tokens, so nothing before it is needed: the cut falls right before it.
    expect(cutOf(messages, { keepRecentTokens: 1_000 })).toEqual({ firstKept: 2 });
  });

  it('summarises everything when the session is one huge tool result that cannot be kept', () => {
    const messages = [user('read the log'), calls(call('a', 'read', { path: 'big.log' })), result('a', bulk(50_000))];
    const cut = cutOf(messages, { keepRecentTokens: 4_000, maxKeptTokens: 8_000 });
    expect(cut).toEqual({ firstKept: 3 });
    // With room for it, the call and its result are kept together and the request is summarised as the turn's start.
    expect(cutOf(messages, { keepRecentTokens: 4_000, maxKeptTokens: 60_000 })).toEqual({ firstKept: 1, turnStart: 0 });
  });

  it('finds nothing to summarise when everything fits, unless a compaction was asked for', () => {
    const messages = [...turn(1, 10), ...turn(2, 10)];
    expect(cutOf(messages, { keepRecentTokens: 10_000 })).toBeNull();
    expect(cutOf(messages, { keepRecentTokens: 10_000, force: true })).toEqual({ firstKept: 4 });
    expect(cutOf([user('only')], { keepRecentTokens: 10_000, force: true })).toEqual({ firstKept: 1 });
  });

  it('starts after the summary of an earlier compaction', () => {
    const messages = [user('The conversation before this point was compacted…'), ...turn(1, 600), ...turn(2, 600)];
    const cut = cutOf(messages, { from: 1, keepRecentTokens: 500 });
    expect(cut!.firstKept).toBeGreaterThan(1);
    expect(cutOf(messages.slice(0, 1), { from: 1 })).toBeNull();
  });
});
