// Session search at the size the issue names, 200 sessions × 500 messages, in real Chromium with the app's
// IndexedDB store: the first search (the index reads every session), later searches (target: under 100 ms), and a
// search right after a message was appended. Prints figures and writes bench/results/session-search.json; asserts
// nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './lib/chromium';
import { blankDevPage } from './lib/dev-page';
import { RESULTS_DIR } from './lib/paths';
import type * as SessionSearchPage from './lib/session-search-page';
import { startDevServer } from './lib/servers';

const SESSIONS = 200;
const MESSAGES = 500;
const QUERIES = ['pad', 'left-pad', 'module 17', 'nowhere-to-be-found', 'prompt', 'the failing test'];
const RUNS = 9;
const module = '/bench/lib/session-search-page.ts';

const browser = await launchChromium();
const dev = await startDevServer();
try {
  const page = await blankDevPage(browser, dev.url);
  const seedMs = await page.evaluate(
    async ({ module, sessions, messages }) => ((await import(/* @vite-ignore */ module)) as typeof SessionSearchPage).seed(sessions, messages),
    { module, sessions: SESSIONS, messages: MESSAGES },
  );
  const figures = await page.evaluate(
    async ({ module, queries, runs }) => ((await import(/* @vite-ignore */ module)) as typeof SessionSearchPage).measure(queries, runs),
    { module, queries: QUERIES, runs: RUNS },
  );
  figures.seedMs = seedMs;
  console.log(`Chromium, IndexedDB: ${figures.sessions} sessions, ${figures.messages.toLocaleString('en')} messages, ` +
    `${figures.megacharacters.toFixed(1)} M characters of searchable text (stored in ${(seedMs / 1000).toFixed(1)} s)`);
  console.log(`  list the sessions: ${figures.listMs.toFixed(0)} ms`);
  console.log(`  first search (reads every session's messages): ${figures.firstMs.toFixed(0)} ms`);
  for (const q of figures.queries) {
    console.log(`  "${q.query}": ${q.medianMs.toFixed(1)} ms median, ${q.maxMs.toFixed(1)} ms worst of ${RUNS} (${q.sessions} sessions)`);
  }
  console.log(`  after one appended message: ${figures.afterAppendMs.toFixed(1)} ms`);
  const worst = Math.max(...figures.queries.map((q) => q.maxMs));
  console.log(`target: under 100 ms after the first search (worst seen ${worst.toFixed(1)} ms)`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'session-search.json'), JSON.stringify(figures, null, 2));
} finally {
  await dev.close();
  await browser.close();
}
