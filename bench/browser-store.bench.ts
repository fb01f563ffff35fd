// Storage figures in real Chromium (IndexedDB, the app's zip import path, its worker runtime):
//   - append cost at the 10th vs the 10,000th entry of a session;
//   - loading a 5,000-message session: the store alone (entries validated, transcript repaired), and the built app
//     reopening it on reload, from navigation start to the first transcript message painted (target 500 ms);
//   - importing a generated 20,000-file, 50 MB repo zip the way the app does, against fflate's bare unzipSync of the
//     same zip in the same browser (target within 1.5x).
// The first and the last run in a page of the Vite dev server (it imports bench/lib/store-page.ts); the reload runs
// against the production build. Prints figures and writes bench/results/browser-store.json; asserts nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { ensureAppBuild } from './lib/app-build';
import { launchChromium } from './lib/chromium';
import { blankDevPage } from './lib/dev-page';
import { longTranscript } from './lib/long-transcript';
import { RESULTS_DIR } from './lib/paths';
import { startDevServer, startPreviewServer } from './lib/servers';
import { storeBundle } from './lib/store-bundle';
import type * as StorePage from './lib/store-page';

type StorePageModule = typeof StorePage;
type PaintMarks = { runtimeReady?: number; messageInDom?: number; messagePainted?: number; messagesInDom?: number; lastText?: string };

const LOAD_MESSAGES = 5000;
const figures: Record<string, unknown> = {};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function inDevPage(browser: Browser): Promise<void> {
  const dev = await startDevServer();
  const page = await blankDevPage(browser, dev.url);
  try {
    const run = <K extends 'appendCost' | 'loadCost' | 'zipImportCost'>(name: K) =>
      page.evaluate(
        async ({ fn, path }) => {
          const module = (await import(/* @vite-ignore */ path)) as StorePageModule;
          return (module[fn] as () => Promise<unknown>)();
        },
        { fn: name, path: '/bench/lib/store-page.ts' },
      );

    const append = (await run('appendCost')) as StorePage.AppendFigures;
    figures.append = append;
    console.log(`append around entry 10: ${append.earlyMedianUs.toFixed(0)} µs median, ${append.earlyMeanUs.toFixed(0)} µs mean (${append.earlySamples} appends)`);
    console.log(`append around entry 10,000: ${append.lateMedianUs.toFixed(0)} µs median, ${append.lateMeanUs.toFixed(0)} µs mean (${append.lateSamples} appends)`);
    console.log(`late/early median ratio: ${(append.lateMedianUs / append.earlyMedianUs).toFixed(2)}x (flat is 1x)`);

    const load = (await run('loadCost')) as StorePage.LoadFigures;
    figures.load = load;
    console.log(`store load of a ${load.messages.toLocaleString()}-message session (validated + repaired): ${ms(median(load.runsMs))} median of ${load.runsMs.length}`);

    const zip = (await run('zipImportCost')) as StorePage.ZipFigures;
    figures.zip = zip;
    const raw = median(zip.rawMs);
    console.log(`repo zip: ${zip.files.toLocaleString()} files, ${zip.megabytes.toFixed(1)} MB (zip ${zip.zipMegabytes.toFixed(1)} MB); medians of ${zip.rawMs.length}:`);
    console.log(`  fflate unzipSync: ${ms(raw)}`);
    console.log(`  readRepoZip (checks, progress, cancel): ${ms(median(zip.readMs))}; ratio ${(median(zip.readMs) / raw).toFixed(2)}x`);
    console.log(`  app import into an empty workspace (readRepoZip + files written in the worker + baseline packed): ${ms(median(zip.importMs))}; ratio ${(median(zip.importMs) / raw).toFixed(2)}x (target <= 1.5x)`);
    console.log(`    of which, timed alone: re-zip stored ${ms(median(zip.rezipMs))}, runtime importZip (worker) ${ms(median(zip.runtimeImportMs))}`);
  } finally {
    await page.close();
    await dev.close();
  }
}

// Runs in the app page before its code: notes when the sandbox is ready and when the first transcript message is
// in the DOM and then painted (the frame after it was inserted has been produced). A string, because tsx wraps
// named functions in a helper that does not exist in the page.
const WATCH_FIRST_MESSAGE = `
  const marks = {};
  window.__marks = marks;
  new MutationObserver(() => {
    if (marks.runtimeReady === undefined && document.querySelector('[data-testid="runtime-status"][data-state="ready"]')) {
      marks.runtimeReady = performance.now();
    }
    if (marks.messageInDom === undefined && document.querySelector('[data-testid="message"]')) {
      marks.messageInDom = performance.now();
      requestAnimationFrame(() => setTimeout(() => {
        marks.messagePainted = performance.now();
        const shown = document.querySelectorAll('[data-testid="message"]');
        marks.messagesInDom = shown.length;
        marks.lastText = shown[shown.length - 1]?.textContent ?? '';
      }, 0));
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

async function reopenInBuiltApp(browser: Browser): Promise<void> {
  const [{ outDir, rebuilt }, storeCode] = await Promise.all([ensureAppBuild(), storeBundle()]);
  if (rebuilt) console.log('built the app into bench/results/dist');
  const server = await startPreviewServer(outDir);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
    const messages = longTranscript(LOAD_MESSAGES);
    const lastText = JSON.stringify(messages[messages.length - 1].content).slice(1, 20);
    // Seed the app's own database (default name) through the store API, from a bundle of src/store.
    await page.evaluate(
      async ({ code, messages }) => {
        const url = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
        const store = (await import(/* @vite-ignore */ url)) as typeof import('../src/store');
        const db = store.createSessionStore();
        await db.importSession({ title: 'Long session (bench)', model: 'mock-model', provider: 'openai-compatible', messages });
        db.close();
      },
      { code: storeCode, messages },
    );
    const runs: PaintMarks[] = [];
    await page.addInitScript({ content: WATCH_FIRST_MESSAGE });
    for (let run = 0; run < 3; run++) {
      await page.reload();
      await page.waitForFunction(() => {
        const marks = (window as unknown as { __marks: PaintMarks }).__marks;
        return marks.messagePainted !== undefined && marks.runtimeReady !== undefined;
      }, undefined, { timeout: 60_000 });
      runs.push(await page.evaluate(() => (window as unknown as { __marks: PaintMarks }).__marks));
    }
    figures.reopen = runs;
    const opened = runs.every((r) => r.lastText?.includes(lastText));
    console.log(`built app reopening the ${LOAD_MESSAGES.toLocaleString()}-message session on reload (median of ${runs.length}; ${opened ? 'its last message shown' : 'NOT the seeded session'}):`);
    console.log(`  sandbox ready at ${ms(median(runs.map((r) => r.runtimeReady ?? NaN)))}; first message in the DOM at ${ms(median(runs.map((r) => r.messageInDom ?? NaN)))}; ` +
      `painted at ${ms(median(runs.map((r) => r.messagePainted ?? NaN)))} after navigation start (target 500 ms); ${runs[0].messagesInDom} message elements in the DOM`);
  } finally {
    await context.close();
    await server.close();
  }
}

const browser = await launchChromium();
try {
  await inDevPage(browser);
  await reopenInBuiltApp(browser);
} finally {
  await browser.close();
}
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, 'browser-store.json'), JSON.stringify(figures, null, 1));
