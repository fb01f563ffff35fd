// How fast session search answers at the size the issue names: 200 sessions × 500 messages. The texts go through
// the store's own encoding and search-text extraction; IndexedDB is left out (bench/session-search.bench.ts times
// the real store in Chromium). Prints figures; asserts what was found, never the time.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { encodeEntry } from './entry-codec';
import { searchTextOf } from './search-text';
import { SessionSearchIndex } from './search';
import { assistant, call, result, user } from '../testing/messages';

const SESSIONS = 200;
const MESSAGES = 500;

/** Deterministic prose from a vocabulary of made-up words (plus a few real ones), `words` long. */
function prose(seed: number, words: number): string {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tu', 'sa', 'vo', 'ne', 'pi', 'dor', 'el', 'qua'];
  const common = ['the', 'build', 'test', 'module', 'function', 'error', 'fix', 'file', 'and', 'returns'];
  let x = seed * 2654435761;
  const next = () => (x = (x * 1103515245 + 12345) >>> 0);
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    if (next() % 3 === 0) out.push(common[next() % common.length]);
    else out.push(syllables[next() % 12] + syllables[next() % 12] + (next() % 2 ? syllables[next() % 12] : ''));
  }
  return out.join(' ');
}

/** A session of MESSAGES messages: prompts, replies with a tool call, results (not searched) and answers. */
function session(s: number): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; messages.length < MESSAGES; turn++) {
    const seed = s * 1000 + turn;
    messages.push(user(`Prompt ${turn}: ${prose(seed, 18)}`));
    messages.push(assistant([{ type: 'text', text: prose(seed + 1, 30) }, call(`c${turn}`, 'bash', { command: `npm test -- module${turn % 40}` })]));
    messages.push(result(`c${turn}`, prose(seed + 2, 120)));
    messages.push(assistant(prose(seed + 3, 90)));
  }
  messages.length = MESSAGES;
  if (s === 137) messages[250] = assistant('The whole problem is left-pad: it was unpublished, and the build pulls it in.');
  return messages;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('session search at 200 sessions × 500 messages', () => {
  it('answers from memory after the first search (figures printed)', async () => {
    const stored = new Map<string, unknown[]>();
    for (let s = 0; s < SESSIONS; s++) stored.set(`s${s}`, session(s).map(encodeEntry));
    const index = new SessionSearchIndex(async (id, from) => Promise.all((stored.get(id) ?? []).slice(from).map(searchTextOf)));
    const records = () => [...stored].map(([id, entries]) => ({ id, messageCount: entries.length }));

    let started = performance.now();
    await index.update(records());
    const firstHits = index.search('pad');
    const firstMs = performance.now() - started;
    expect([...firstHits.keys()]).toEqual(['s137']);
    expect(firstHits.get('s137')?.seq).toBe(250);
    expect(index.size).toMatchObject({ sessions: SESSIONS, messages: SESSIONS * MESSAGES });

    // Later searches, each as the library runs it: bring the index up to the list, then scan.
    const figures: string[] = [];
    for (const query of ['pad', 'left-pad', 'module17', 'zzz-nowhere', 'the build', 'ka']) {
      const runs: number[] = [];
      let found = 0;
      for (let run = 0; run < 7; run++) {
        started = performance.now();
        await index.update(records());
        found = index.search(query).size;
        runs.push(performance.now() - started);
      }
      figures.push(`"${query}" ${median(runs).toFixed(1)} ms (${found} sessions)`);
    }

    // A message appended to one session, as the agent works: the next search reads that one message only.
    stored.get('s3')!.push(encodeEntry(assistant('now with right-pad too')));
    started = performance.now();
    await index.update(records());
    const afterAppend = index.search('right-pad');
    const appendMs = performance.now() - started;
    expect([...afterAppend.keys()]).toEqual(['s3']);

    const megachars = index.size.characters / 1e6;
    console.log(
      `session search, ${SESSIONS} sessions × ${MESSAGES} messages (${megachars.toFixed(1)} M characters of searchable text): ` +
        `first search (reads everything) ${firstMs.toFixed(0)} ms; then ${figures.join(', ')}; ` +
        `after one appended message ${appendMs.toFixed(1)} ms`,
    );
  }, 120_000);
});
