// The store's compaction entries and the per-session draft slot (fake IndexedDB).
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, CompactionEntry } from '../../ai/types';
import { closeInterruptedReply, INTERRUPTED_BY_RELOAD } from './repair-transcript';
import { createSessionStore } from './session-store';
import { assistant, call, transcript, user } from '../testing/messages';
import type { SessionStore } from '../types';

let counter = 0;
const opened: SessionStore[] = [];
function storeNamed(prefix: string): SessionStore {
  const store = createSessionStore({ prefix });
  opened.push(store);
  return store;
}
const freshStore = () => storeNamed(`compaction-${counter++}-`);
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function compaction(summary: string, firstKeptSeq: number, atSeq: number, extra: Partial<CompactionEntry> = {}): CompactionEntry {
  return {
    type: 'compaction', summary, firstKeptSeq, atSeq, tokensBefore: 180_000, tokensAfter: 24_000,
    readFiles: ['src/a.ts'], modifiedFiles: ['src/b.ts'], timestamp: 99,
    usage: { input: 1_000, output: 200, cacheRead: 0, cacheWrite: 0, cost: { total: 0.5 } }, ...extra,
  };
}

describe('compaction entries', () => {
  it('are stored beside the messages, in order, survive a reload, and leave the transcript as it was', async () => {
    const prefix = `compaction-${counter++}-`;
    const store = storeNamed(prefix);
    const { id } = await store.createSession();
    for (const m of transcript(3)) await store.appendEntry(id, m);
    await store.appendCompaction(id, compaction('first', 4, 8));
    await store.appendEntry(id, user('more'));
    await store.appendCompaction(id, compaction('second', 8, 13));
    expect(await store.appendEntry(id, user('after'))).toBe(13);
    store.close();

    const reopened = storeNamed(prefix);
    expect((await reopened.loadCompactions(id)).map((c) => c.summary)).toEqual(['first', 'second']);
    expect(await reopened.loadEntries(id)).toEqual([...transcript(3), user('more'), user('after')]);
  });

  it('count their summary calls in the session\'s cost and tokens', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    for (const m of transcript(1)) await store.appendEntry(id, m);
    const before = (await store.getSession(id))!;
    await store.appendCompaction(id, compaction('s', 2, 4));
    await store.appendCompaction(id, compaction('no usage recorded', 2, 4, { usage: undefined }));
    const after = (await store.getSession(id))!;
    expect(after.cost).toBeCloseTo(before.cost + 0.5);
    expect(after.tokens.input).toBe(before.tokens.input + 1_000);
    expect(after.messageCount).toBe(4);
  });

  it('refuses one that names messages the session does not have, storing nothing', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.appendEntry(id, user('only'));
    await expect(store.appendCompaction(id, compaction('s', 0, 2))).rejects.toThrow(
      'This compaction cannot be stored: atSeq must be at most 1 (the messages before it), got 2.',
    );
    await expect(store.appendCompaction(id, compaction('s', 1, 0))).rejects.toThrow(/firstKeptSeq must be at most atSeq \(0\)/);
    await expect(store.appendCompaction('gone', compaction('s', 0, 0))).rejects.toThrow(/does not exist/);
    expect(await store.loadCompactions(id)).toEqual([]);
  });

  it('a fork keeps the compactions made before its point only', async () => {
    const store = freshStore();
    const parent = await store.createSession();
    for (const m of transcript(4)) await store.appendEntry(parent.id, m); // user messages at 0, 4, 8, 12
    await store.appendCompaction(parent.id, compaction('early', 4, 8));
    await store.appendCompaction(parent.id, compaction('late', 8, 13, { usage: undefined }));
    const { session } = await store.forkSession(parent.id, 12);
    expect((await store.loadCompactions(session.id)).map((c) => c.summary)).toEqual(['early']);
    expect(session.cost).toBeCloseTo(0.06 + 0.5); // six replies before message 12, and the early compaction
    const atStart = await store.forkSession(parent.id, 4);
    expect(await store.loadCompactions(atStart.session.id)).toEqual([]);
    expect((await store.loadCompactions(parent.id)).length).toBe(2);
  });

  it('an imported seed brings its compactions; deleting the session removes them with everything else', async () => {
    const store = freshStore();
    const imported = await store.importSession({ title: 'T', model: 'm', provider: 'p', messages: transcript(2), compactions: [compaction('carried', 4, 8)] });
    expect(await store.loadCompactions(imported.id)).toEqual([compaction('carried', 4, 8)]);
    expect(imported.cost).toBeCloseTo(0.04 + 0.5);
    await store.deleteSession(imported.id);
    await expect(store.loadCompactions(imported.id)).rejects.toThrow(/does not exist/);
  });
});

describe('the draft slot', () => {
  const partial = (text: string): AssistantMessage => ({ ...assistant([{ type: 'text', text }, call('c1', 'read', { path: 'a.ts' })]), stopReason: 'stop' });

  it('holds the latest save until cleared, survives a reload, and is never part of the transcript', async () => {
    const prefix = `compaction-${counter++}-`;
    const store = storeNamed(prefix);
    const { id } = await store.createSession();
    await store.appendEntry(id, user('go'));
    expect(await store.loadDraft(id)).toBeUndefined();
    await store.saveDraft(id, partial('Let me'));
    await store.saveDraft(id, partial('Let me look'));
    store.close();

    const reopened = storeNamed(prefix);
    expect(await reopened.loadDraft(id)).toEqual(partial('Let me look'));
    expect(await reopened.loadEntries(id)).toEqual([user('go')]);
    expect((await reopened.getSession(id))?.messageCount).toBe(1);
    const fork = await reopened.forkSession(id, 0);
    expect(await reopened.loadDraft(fork.session.id)).toBeUndefined();
    await reopened.clearDraft(id);
    expect(await reopened.loadDraft(id)).toBeUndefined();
  });

  it('says what is wrong with a damaged draft, and goes with its session', async () => {
    const store = freshStore();
    const { id } = await store.createSession();
    await store.saveDraft(id, { ...partial('x'), stopReason: 'bogus' } as unknown as AssistantMessage);
    await expect(store.loadDraft(id)).rejects.toThrow(/The reply saved while streaming in session .* is damaged \(stopReason: must be one of/);
    await store.saveDraft(id, user('not a reply') as unknown as AssistantMessage);
    await expect(store.loadDraft(id)).rejects.toThrow(/damaged \(it is not a reply\)/);
    await store.deleteSession(id);
    expect(await store.loadDraft(id)).toBeUndefined();
    await expect(store.saveDraft(id, partial('late'))).rejects.toThrow(/does not exist/);
  });

  it('closes an interrupted reply as aborted, with an aborted result for each of its tool calls', () => {
    const [closed, ...results] = closeInterruptedReply(partial('Let me look'));
    expect(closed).toMatchObject({ role: 'assistant', stopReason: 'aborted', errorMessage: INTERRUPTED_BY_RELOAD, content: partial('Let me look').content });
    expect(results).toEqual([expect.objectContaining({ role: 'toolResult', toolCallId: 'c1', isError: true })]);
  });
});
