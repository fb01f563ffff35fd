// Session search measured INSIDE a Chromium page served by the Vite dev server (session-search.bench.ts imports this
// module with page.evaluate): the real IndexedDB store seeded with 200 sessions × 500 messages, searched the way the
// session list searches (bring the index up to the listed sessions, then scan).
import { createSessionStore, SessionSearchIndex, type SessionStore } from '../../src/store';
import { longTranscript } from './long-transcript';

export type SearchFigures = {
  sessions: number;
  messages: number;
  megacharacters: number;
  seedMs: number;
  listMs: number;
  firstMs: number;
  queries: { query: string; medianMs: number; maxMs: number; sessions: number }[];
  afterAppendMs: number;
};

let store: SessionStore | null = null;

/** Stores `sessions` sessions of `messages` messages each (one of them about left-pad); returns the time taken. */
export async function seed(sessions: number, messages: number): Promise<number> {
  const started = performance.now();
  store = createSessionStore({ prefix: `bench-search-${Date.now()}-` });
  for (let s = 0; s < sessions; s++) {
    const transcript = longTranscript(messages, Date.UTC(2026, 0, 5, 9) + s * 3_600_000);
    if (s === Math.floor(sessions / 2)) {
      transcript[messages / 2] = { ...transcript[messages / 2], role: 'user', content: 'Why does npm fail on left-pad?', timestamp: 1 };
    }
    await store.importSession({ title: `Session ${s}`, model: 'claude-test', provider: 'anthropic', messages: transcript });
  }
  return performance.now() - started;
}

/** Times the first search (reads everything), later ones (median and worst of `runs`), and one after an append. */
export async function measure(queries: string[], runs: number): Promise<SearchFigures> {
  if (!store) throw new Error('seed() first');
  const s = store;
  let started = performance.now();
  let records = await s.listSessions();
  const listMs = performance.now() - started;
  const index = new SessionSearchIndex((id, from) => s.loadSearchTexts(id, from));
  started = performance.now();
  await index.update(records);
  index.search(queries[0]);
  const firstMs = performance.now() - started;

  const results: SearchFigures['queries'] = [];
  for (const query of queries) {
    const times: number[] = [];
    let found = 0;
    for (let run = 0; run < runs; run++) {
      started = performance.now();
      await index.update(records);
      found = index.search(query).size;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    results.push({ query, medianMs: times[Math.floor(times.length / 2)], maxMs: times[times.length - 1], sessions: found });
  }

  const { id } = records[0];
  await s.appendEntry(id, { role: 'user', content: 'and now right-pad as well', timestamp: 2 });
  records = await s.listSessions();
  started = performance.now();
  await index.update(records);
  const hits = index.search('right-pad');
  const afterAppendMs = performance.now() - started;
  if (!hits.has(id)) throw new Error('the appended message was not found');

  const size = index.size;
  return { sessions: size.sessions, messages: size.messages, megacharacters: size.characters / 1e6, seedMs: 0, listMs, firstMs, queries: results, afterAppendMs };
}
