import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '../../ai/types';
import { LARGE_TEXT_CHARS } from './entry-codec';
import { INDEXED_CHARS } from './search-text';
import { createSessionStore } from './session-store';
import { lowerAligned, SessionSearchIndex, type LoadSearchTexts } from './search';
import { assistant, call, result, user } from '../testing/messages';
import type { SessionStore } from '../types';

let n = 0;
const stores: SessionStore[] = [];
const fresh = () => {
  const store = createSessionStore({ prefix: `search-${n++}-` });
  stores.push(store);
  return store;
};
afterEach(() => {
  stores.splice(0).forEach((s) => s.close());
  vi.restoreAllMocks();
});

async function sessionWith(store: SessionStore, title: string, messages: Message[]): Promise<string> {
  const { id } = await store.createSession({ title });
  for (const message of messages) await store.appendEntry(id, message);
  return id;
}

const indexOver = (store: SessionStore) => new SessionSearchIndex((id, from) => store.loadSearchTexts(id, from));
const hitsOf = async (store: SessionStore, index: SessionSearchIndex, query: string) => {
  await index.update(await store.listSessions());
  return index.search(query);
};

describe('session search', () => {
  it('finds the message text of a session, case-insensitive, with the message and the words around the match', async () => {
    const store = fresh();
    const padding = await sessionWith(store, 'Fix the build', [
      user('Why does the build fail?'),
      assistant(`${'Checking the lockfile. '.repeat(3)}Found it: the package left-pad is unpublished.`),
      assistant([{ type: 'thinking', thinking: 'unrelated musing about a launchpad' }, { type: 'text', text: 'The build imports Left-Pad from a registry that is down.' }]),
      user('Then vendor it.'),
    ]);
    await sessionWith(store, 'Other', [user('Nothing to see'), assistant('Indeed.')]);
    const hits = await hitsOf(store, indexOver(store), 'PAD');
    expect([...hits.keys()]).toEqual([padding]);
    expect(hits.get(padding)).toEqual({ seq: 1, snippet: { before: '…it: the package left-', match: 'pad', after: ' is unpublished.' } });
  });

  it('looks through what a person reads: prompts, replies and tool calls’ commands and paths, not output or thinking', async () => {
    const store = fresh();
    const id = await sessionWith(store, 't', [
      user('go'),
      assistant([{ type: 'thinking', thinking: 'zebra' }, call('c', 'bash', { command: 'npm run lint' }), call('r', 'read', { path: 'src/walrus.ts' })]),
      result('c', 'giraffe output'),
      result('r', 'file text', 'read'),
    ]);
    const index = indexOver(store);
    expect((await hitsOf(store, index, 'run lint')).get(id)?.seq).toBe(1);
    expect((await hitsOf(store, index, 'walrus')).get(id)?.seq).toBe(1);
    expect((await hitsOf(store, index, 'giraffe')).size).toBe(0);
    expect((await hitsOf(store, index, 'zebra')).size).toBe(0);
    // A query never matches across two messages.
    expect((await hitsOf(store, index, 'go\nnpm')).size).toBe(0);
  });

  it("finds what a subagent task was asked: its call's description and prompt", async () => {
    const store = fresh();
    const id = await sessionWith(store, 'Explore', [
      user('look around'),
      assistant([call('t1', 'task', { description: 'Find the config loader', prompt: 'Search for where dotenv files are parsed', agent: 'explore' })]),
      result('t1', 'It is in src/env.ts', 'task'),
    ]);
    const index = indexOver(store);
    expect((await hitsOf(store, index, 'config loader')).get(id)?.seq).toBe(1);
    expect((await hitsOf(store, index, 'dotenv files')).get(id)?.seq).toBe(1);
  });

  it('keeps up with the list: appended messages, new and imported sessions, deletions; it reads only what it lacks', async () => {
    const store = fresh();
    const first = await sessionWith(store, 'a', [user('about left-pad')]);
    const reads: [string, number][] = [];
    const load: LoadSearchTexts = (id, from) => {
      reads.push([id, from]);
      return store.loadSearchTexts(id, from);
    };
    const index = new SessionSearchIndex(load);
    expect([...(await hitsOf(store, index, 'pad')).keys()]).toEqual([first]);

    await store.appendEntry(first, assistant('and also right-pad'));
    const second = await sessionWith(store, 'b', [user('nothing here'), assistant('still nothing')]);
    const hits = await hitsOf(store, index, 'right-pad');
    expect(hits.get(first)?.seq).toBe(1);
    expect(reads.slice(1).sort()).toEqual([[first, 1], [second, 0]].sort());

    const imported = await store.importSession({ title: 'c (imported)', model: '', provider: '', messages: [user('x'), assistant('pad thai recipe')] });
    expect([...(await hitsOf(store, index, 'pad')).keys()].sort()).toEqual([first, imported.id].sort());

    await store.deleteSession(first);
    expect([...(await hitsOf(store, index, 'pad')).keys()]).toEqual([imported.id]);
    expect(index.size).toMatchObject({ sessions: 2, messages: 4 });
    reads.length = 0;
    await hitsOf(store, index, 'pad');
    expect(reads).toEqual([]); // nothing changed: nothing read
  });

  it('reads a text kept in Blobs once, up to its first INDEXED_CHARS, and never again on later searches', async () => {
    const store = fresh();
    const filler = 'lorem ipsum '.repeat(Math.ceil((LARGE_TEXT_CHARS + 1000) / 12));
    const text = `start marker ${filler.slice(0, INDEXED_CHARS - 200)} early needle ${filler} late needle`;
    const id = await sessionWith(store, 't', [user('hi'), assistant(text)]);
    const reads = vi.spyOn(Blob.prototype, 'text');
    const index = indexOver(store);
    expect((await hitsOf(store, index, 'early needle')).get(id)?.seq).toBe(1);
    expect(reads).toHaveBeenCalledTimes(1);
    expect((await hitsOf(store, index, 'start marker')).get(id)?.seq).toBe(1);
    expect((await hitsOf(store, index, 'late needle')).size).toBe(0);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('a session deleted while it was being read is left out, not an error', async () => {
    const store = fresh();
    const id = await sessionWith(store, 'a', [user('pad')]);
    const index = new SessionSearchIndex(async () => {
      throw new Error(`Session ${id} does not exist`);
    });
    await index.update(await store.listSessions());
    expect(index.search('pad').size).toBe(0);
  });

  it('cuts a snippet between words where it can, and inside a word that is longer than the context', async () => {
    const store = fresh();
    const id = await sessionWith(store, 't', [user(`${'x'.repeat(100)}NEEDLE${'y'.repeat(100)}`)]);
    const hit = (await hitsOf(store, indexOver(store), 'needle')).get(id);
    expect(hit?.snippet).toEqual({ before: `…${'x'.repeat(24)}`, match: 'NEEDLE', after: `${'y'.repeat(64)}…` });
  });

  it('lowercases without moving any character', () => {
    expect(lowerAligned('İstanbul ÇAY')).toBe('İstanbul çay');
    expect(lowerAligned('İ').length).toBe(1);
  });
});
