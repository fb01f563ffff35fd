// Streaming smoothness in real Chromium: the built app, set up through its settings dialog against the mock
// provider, receives a Markdown answer at 100 tokens per second (one token per SSE frame, every 10 ms) for
// CONCH_BENCH_STREAM_SECONDS (default 60). A PerformanceObserver in the page records long tasks (main-thread tasks
// over 50 ms) and long animation frames (with the scripts that ran in them, to explain any long task). A Chromium
// trace of the same stream gives each main-thread task's CPU time next to its wall time: on a busy machine a task
// can take 80 ms of wall time for 4 ms of work, and only the CPU figure says whether the app is at fault.
// Prints figures and writes bench/results/browser-streaming.json; asserts nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { startMockProvider } from '../e2e/mock-provider/server';
import { configureMockProvider, sendPrompt } from './lib/app-page';
import { ensureAppBuild } from './lib/app-build';
import { launchChromium } from './lib/chromium';
import { markdownAnswer, splitTokens } from './lib/markdown-answer';
import { RESULTS_DIR } from './lib/paths';
import { startPreviewServer } from './lib/servers';
import { traceTasks } from './lib/trace';

const seconds = Number(process.env.CONCH_BENCH_STREAM_SECONDS ?? 60);
const TOKENS_PER_SECOND = 100;
if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`CONCH_BENCH_STREAM_SECONDS must be a positive number, got "${process.env.CONCH_BENCH_STREAM_SECONDS}".`);

type LongTask = { start: number; duration: number };
type LongFrame = { start: number; duration: number; blocking: number; scripts: { source: string; duration: number }[] };
type PageRecord = { longTasks: LongTask[]; longFrames: LongFrame[] };

// Runs in the page before any app code: collects entries from the first moment.
function observeMainThread(): void {
  const record: PageRecord = { longTasks: [], longFrames: [] };
  (window as unknown as { __benchRecord: PageRecord }).__benchRecord = record;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const frame = entry as PerformanceEntry & { blockingDuration: number; scripts: { sourceURL: string; sourceFunctionName: string; invoker: string; duration: number }[] };
        record.longFrames.push({
          start: frame.startTime,
          duration: frame.duration,
          blocking: frame.blockingDuration,
          scripts: frame.scripts.map((s) => ({ source: `${s.invoker} ${s.sourceFunctionName} ${s.sourceURL.split('/').pop()}`, duration: s.duration })),
        });
      }
    }).observe({ type: 'long-animation-frame', buffered: true });
  } catch {
    // Older Chromium: long tasks alone.
  }
}

const tokens = splitTokens(markdownAnswer(Math.round(seconds * TOKENS_PER_SECOND))).slice(0, Math.round(seconds * TOKENS_PER_SECOND));
const answer = tokens.join('');
// The answer may be cut anywhere (inside a table or a code fence); its last word shows however it renders.
const lastWord = answer.match(/[A-Za-z0-9]+/g)?.pop() ?? '';

const { outDir, rebuilt } = await ensureAppBuild();
if (rebuilt) console.log('built the app into bench/results/dist');
const server = await startPreviewServer(outDir);
const mock = await startMockProvider();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(observeMainThread);
  await page.goto(server.url);
  await configureMockProvider(page, mock.url);
  mock.setScript([{ content: [{ type: 'text', text: answer, deltas: tokens }], frameIntervalMs: 1000 / TOKENS_PER_SECOND }]);

  const trace = await traceTasks(page);
  const streamStart = await page.evaluate(() => performance.now());
  await sendPrompt(page, 'Explain the plan in detail');
  await page.locator('[data-testid="message"][data-role="assistant"][data-streaming="true"]').waitFor({ timeout: 30_000 });
  const firstDeltaAt = await page.evaluate(() => performance.now());
  await page.locator('[data-testid="message"][data-role="assistant"]:not([data-streaming])').last().waitFor({ timeout: (seconds + 120) * 1000 });
  const streamEnd = await page.evaluate(() => performance.now());
  const tasks = await trace.stop();
  const shownText = (await page.locator('[data-testid="message"][data-role="assistant"]').last().innerText()).replace(/\s+/g, ' ');
  const record = await page.evaluate(() => (window as unknown as { __benchRecord: PageRecord }).__benchRecord);

  const during = <T extends { start: number }>(entries: T[]) => entries.filter((e) => e.start >= streamStart && e.start <= streamEnd);
  const longTasks = during(record.longTasks);
  const longFrames = during(record.longFrames);
  const streamedSeconds = (streamEnd - firstDeltaAt) / 1000;
  const maxTask = Math.max(0, ...longTasks.map((t) => t.duration));

  console.log(`streamed ${tokens.length} tokens (${answer.length.toLocaleString()} chars of Markdown) in ${streamedSeconds.toFixed(1)} s: ` +
    `${(tokens.length / streamedSeconds).toFixed(0)} tokens/s; final text ${shownText.trimEnd().slice(-40).includes(lastWord) ? 'complete' : 'INCOMPLETE'}`);
  console.log(`long tasks during the stream: ${longTasks.length} over 50 ms (target 0); max ${maxTask.toFixed(0)} ms`);
  console.log(`long animation frames during the stream: ${longFrames.length}; max ${Math.max(0, ...longFrames.map((f) => f.duration)).toFixed(0)} ms, ` +
    `max blocking ${Math.max(0, ...longFrames.map((f) => f.blocking)).toFixed(0)} ms`);
  const overWall = tasks.filter((t) => t.wallMs > 50);
  const overCpu = tasks.filter((t) => t.cpuMs > 50);
  console.log(`traced main-thread tasks: ${tasks.length}; over 50 ms of wall time: ${overWall.length}; over 50 ms of CPU time: ${overCpu.length}; ` +
    `max CPU ${Math.max(0, ...tasks.map((t) => t.cpuMs)).toFixed(0)} ms (load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`);
  const worst = [...longFrames].sort((a, b) => b.duration - a.duration).slice(0, 3);
  for (const frame of worst) {
    const scripts = frame.scripts.sort((a, b) => b.duration - a.duration).slice(0, 3).map((s) => `${s.source} ${s.duration.toFixed(0)} ms`);
    console.log(`  frame at ${((frame.start - streamStart) / 1000).toFixed(1)} s: ${frame.duration.toFixed(0)} ms; ${scripts.join('; ') || 'no script attribution'}`);
  }

  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'browser-streaming.json'), JSON.stringify({ seconds, tokens: tokens.length, streamedSeconds, longTasks, longFrames, tracedLongTasks: overWall }, null, 1));
} finally {
  await browser.close();
  await mock.close();
  await server.close();
}
