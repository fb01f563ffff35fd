// Workspace snapshots on a real-sized repo (bench/lib/big-repo.ts: 20,000 files, ~48 MB), in the built app in
// Chromium, driven like a person against the mock provider:
//   1. import the repo zip;
//   2. a turn whose agent edits 3 files: how long the saving takes after the turn, how busy the embedded runtime's
//      worker was, and what the store grew by (against the bytes of the changed files; manifests printed apart);
//   3. a turn that edits 1 file, then the next prompt sent the moment it ends: Send -> request on the wire;
//   4. a turn that only runs a read-only command: what the store grew by (target 0 bytes of snapshot data);
//   5. restoring the checkpoint of the first prompt after the import, and forking from the next one.
// Send -> request is also measured on the empty workspace first, for comparison on the same machine at the time.
// Figures from outside the app (save status, trace of the page's threads, an IndexedDB census) are printed for any
// version of the app; the app's own conch:* User Timing measures are printed where it has them. Writes
// bench/results/snapshot.json; asserts nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startMockProvider, type MockProvider } from '../e2e/mock-provider/server';
import type { MockTurn } from '../e2e/mock-provider/script';
import { configureMockProvider, sendPrompt } from './lib/app-page';
import { ensureAppBuild } from './lib/app-build';
import { generateBigRepo, repoZip, type BigRepo } from './lib/big-repo';
import { launchChromium } from './lib/chromium';
import { RESULTS_DIR } from './lib/paths';
import { startPreviewServer } from './lib/servers';
import {
  appMeasures,
  census,
  completionRequestStarts,
  growth,
  pageNow,
  pageRecord,
  RECORD_SAVES_AND_SENDS,
  storageUsage,
  waitSettled,
  type StoreCensus,
} from './lib/snapshot-page';
import { tasksIn, traceThreads, type ThreadTask } from './lib/thread-trace';

const SNAPSHOT_STORES = ['snapshots', 'blobs', 'trees'];
const figures: Record<string, unknown> = {};
const ms = (value: number) => `${value.toFixed(0)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(2)} MB`;

/** An edit the agent can make to `file`: a line that occurs once, with a comment appended. */
function editOf(file: BigRepo['files'][number]): { path: string; oldText: string; newText: string } {
  const lines = new TextDecoder().decode(file.data).split('\n');
  const once = lines.filter((line) => line.length > 20 && lines.indexOf(line) === lines.lastIndexOf(line));
  const line = once[0];
  if (!line) throw new Error(`No unique line in ${file.path} to edit.`);
  return { path: file.path, oldText: line, newText: `${line} // edited by the bench` };
}

const editCall = (edit: ReturnType<typeof editOf>) => ({
  type: 'toolCall' as const,
  name: 'edit',
  arguments: { path: edit.path, edits: [{ oldText: edit.oldText, newText: edit.newText }] },
});
const text = (t: string): MockTurn => ({ content: [{ type: 'text', text: t }] });

async function finishTurn(page: Page, answer: string): Promise<number> {
  await page.locator('[data-testid="message"][data-role="assistant"]:not([data-streaming])', { hasText: answer }).last().waitFor({ timeout: 120_000 });
  return pageNow(page);
}

function snapshotBytes(change: StoreCensus): number {
  return SNAPSHOT_STORES.reduce((sum, name) => sum + (change[name]?.bytes ?? 0), 0);
}

function describeGrowth(change: StoreCensus): string {
  return Object.entries(change)
    .filter(([, v]) => v.bytes !== 0 || v.count !== 0)
    .map(([name, v]) => `${name} ${v.bytes >= 0 ? '+' : ''}${kb(v.bytes)} (${v.count >= 0 ? '+' : ''}${v.count})`)
    .join(', ');
}

function busy(tasks: ThreadTask[], thread: RegExp, from: number, to: number): { wallMs: number; cpuMs: number; maxMs: number } {
  const inWindow = tasksIn(tasks, thread, from, to);
  return {
    wallMs: inWindow.reduce((s, t) => s + t.wallMs, 0),
    cpuMs: inWindow.reduce((s, t) => s + t.cpuMs, 0),
    maxMs: Math.max(0, ...inWindow.map((t) => t.wallMs)),
  };
}

/** Sends `prompt` the moment the turn before ended and returns how long until its request went out (page clock). */
async function sendToWire(page: Page, prompt: string): Promise<number> {
  const requestsBefore = (await completionRequestStarts(page)).length;
  await sendPrompt(page, prompt);
  await page.waitForFunction((n) => performance.getEntriesByType('resource').filter((e) => e.name.includes('/chat/completions')).length > n, requestsBefore, { timeout: 60_000 });
  const { sendAt } = await pageRecord(page);
  return (await completionRequestStarts(page))[requestsBefore] - sendAt[sendAt.length - 1];
}

async function run(page: Page, mock: MockProvider, repo: BigRepo, zip: Uint8Array): Promise<void> {
  // 0. Send -> request on an empty workspace, right after a turn ended: what "fast" is on this machine now.
  mock.setScript([text('First.'), text('Second.')]);
  await sendPrompt(page, 'Say something');
  await finishTurn(page, 'First.');
  const emptySendToWire = await sendToWire(page, 'Say something else');
  await finishTurn(page, 'Second.');
  await waitSettled(page);
  figures.emptySendToWireMs = emptySendToWire;

  // 1. Import.
  const importStart = await pageNow(page);
  await page.getByTestId('import-zip').setInputFiles({ name: 'big-repo-main.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
  await page.getByTestId('import-result').waitFor({ timeout: 180_000 });
  const imported = await pageNow(page);
  const importSaved = await waitSettled(page);
  const afterImport = await census(page);
  const usageAfterImport = await storageUsage(page);
  figures.import = { shownMs: imported - importStart, savedMs: importSaved - importStart, census: afterImport, usage: usageAfterImport };
  console.log(`import: ${repo.files.length.toLocaleString()} files, ${mb(repo.files.reduce((s, f) => s + f.data.length, 0))}; ` +
    `result shown after ${ms(imported - importStart)}, saved after ${ms(importSaved - importStart)}`);
  console.log(`  stored after import: ${Object.entries(afterImport).map(([n, v]) => `${n} ${mb(v.bytes)} (${v.count})`).join(', ')}; storage.estimate() ${mb(usageAfterImport)}`);
  if (afterImport.trees) console.log(`  manifests of the ${repo.files.length.toLocaleString()}-file tree: ${kb(afterImport.trees.bytes)} in ${afterImport.trees.count} trees`);

  const trace = await traceThreads(page);
  const sources = repo.files.filter((f) => f.path.startsWith('packages/'));
  const threeEdits = [sources[5], sources[7_005], sources[15_005]].map(editOf);
  const oneEdit = editOf(sources[11_011]);

  // 2. A turn that edits 3 files.
  mock.setScript([{ content: threeEdits.map(editCall) }, text('Edited three files.')]);
  await trace.mark('turn1-send');
  const t1Send = await pageNow(page);
  await sendPrompt(page, 'Edit three files');
  const t1End = await finishTurn(page, 'Edited three files.');
  await trace.mark('turn1-end');
  const t1Saved = await waitSettled(page);
  await trace.mark('turn1-saved');
  const afterTurn1 = await census(page);
  const turn1 = growth(afterImport, afterTurn1);
  const changedBytes = threeEdits.reduce((s, e) => s + repo.files.find((f) => f.path === e.path)!.data.length + e.newText.length - e.oldText.length, 0);

  // 3. A turn that edits 1 file; the next prompt goes out the moment it ends.
  mock.setScript([{ content: [editCall(oneEdit)] }, text('Edited one file.'), { content: [{ type: 'toolCall', name: 'bash', arguments: { command: 'ls packages | wc -l' } }] }, text('Counted.')]);
  await sendPrompt(page, 'Edit one file');
  await finishTurn(page, 'Edited one file.');
  const bigSendToWire = await sendToWire(page, 'Count the packages');
  await finishTurn(page, 'Counted.');
  await waitSettled(page);
  const beforeReadOnly = await census(page);

  // 4. A turn that only runs a read-only command.
  mock.setScript([{ content: [{ type: 'toolCall', name: 'bash', arguments: { command: 'cat README.md | wc -c' } }] }, text('Read it.')]);
  await trace.mark('turn4-send');
  await sendPrompt(page, 'How long is the README?');
  await finishTurn(page, 'Read it.');
  await waitSettled(page);
  await trace.mark('turn4-saved');
  const afterReadOnly = await census(page);
  const readOnly = growth(beforeReadOnly, afterReadOnly);

  // 5. Restore the checkpoint of the first prompt after the import (the imported repo), then fork from the next one.
  // (The two prompts before the import were the empty-workspace figure.)
  const firstUser = page.locator('[data-testid="message"][data-role="user"]').nth(2);
  await firstUser.hover();
  await trace.mark('restore-start');
  const restoreStart = await pageNow(page);
  await page.getByTestId('restore-checkpoint').nth(2).click();
  await page.getByTestId('restore-done').waitFor({ timeout: 120_000 });
  const restoreShown = await pageNow(page);
  const restoreSaved = await waitSettled(page);
  await trace.mark('restore-saved');
  const afterRestore = await census(page);

  const secondUser = page.locator('[data-testid="message"][data-role="user"]').nth(3);
  await secondUser.hover();
  const forkStart = await pageNow(page);
  await page.getByTestId('fork-message').nth(3).click();
  await page.getByTestId('session-item').nth(1).waitFor({ timeout: 120_000 });
  await page.waitForFunction(() => (document.querySelector('[data-testid="prompt-input"]') as HTMLTextAreaElement | null)?.value === 'Edit one file', undefined, { timeout: 120_000 });
  const forkShown = await pageNow(page);
  const forkSaved = await waitSettled(page);
  const afterFork = await census(page);
  const usageAtEnd = await storageUsage(page);

  const { tasks, marks, measures: traced } = await trace.stop();
  const mark = (label: string) => marks.get(label) ?? NaN;
  const worker = /DedicatedWorker/;
  const turn1Worker = busy(tasks, worker, mark('turn1-send'), mark('turn1-saved'));
  const turn1Main = busy(tasks, /CrRendererMain/, mark('turn1-send'), mark('turn1-saved'));
  const readOnlyWorker = busy(tasks, worker, mark('turn4-send'), mark('turn4-saved'));
  const restoreWorker = busy(tasks, worker, mark('restore-start'), mark('restore-saved'));
  const measures = await appMeasures(page);
  // The app's own snapshot measures (where it has them), with the worker's busy time inside each.
  const inTurn1 = (m: { startUs: number }) => m.startUs >= mark('turn1-send') && m.startUs <= mark('turn1-saved');
  const snapshotWork = traced
    .filter((m) => m.name.startsWith('conch:snapshot') && inTurn1(m))
    .map((m) => ({
      name: m.name,
      wallMs: (m.endUs - m.startUs) / 1000,
      worker: busy(tasks, worker, m.startUs, m.endUs),
      main: busy(tasks, /CrRendererMain/, m.startUs, m.endUs),
    }));
  const readOnlyCaptures = traced.filter((m) => m.name === 'conch:snapshot-capture' && m.startUs >= mark('turn4-send') && m.startUs <= mark('turn4-saved'));

  figures.turn1 = { endMs: t1End - t1Send, savedAfterEndMs: t1Saved - t1End, worker: turn1Worker, main: turn1Main, growth: turn1, changedBytes, snapshotWork };
  figures.sendToWireMs = bigSendToWire;
  figures.readOnly = { growth: readOnly, worker: readOnlyWorker };
  figures.restore = { shownMs: restoreShown - restoreStart, savedMs: restoreSaved - restoreStart, growth: growth(afterReadOnly, afterRestore), worker: restoreWorker };
  figures.fork = { shownMs: forkShown - forkStart, savedMs: forkSaved - forkStart, growth: growth(afterRestore, afterFork) };
  figures.measures = measures;
  figures.usageAtEnd = usageAtEnd;

  console.log(`turn editing 3 files: answered ${ms(t1End - t1Send)} after Send; saving settled ${ms(t1Saved - t1End)} after the turn ended`);
  console.log(`  worker busy from Send until saved: ${ms(turn1Worker.wallMs)} (CPU ${ms(turn1Worker.cpuMs)}, longest task ${ms(turn1Worker.maxMs)}); ` +
    `main thread: ${ms(turn1Main.wallMs)} (longest task ${ms(turn1Main.maxMs)})`);
  // Each window also holds whatever else ran meanwhile (the tools, the transcript), so these are upper bounds.
  for (const work of snapshotWork) {
    console.log(`  ${work.name}: ${ms(work.wallMs)} wall; inside it the worker was busy ${ms(work.worker.wallMs)} (CPU ${ms(work.worker.cpuMs)}), ` +
      `the main thread ${ms(work.main.wallMs)} (CPU ${ms(work.main.cpuMs)})`);
  }
  if (snapshotWork.length > 0) {
    const sum = (f: (w: (typeof snapshotWork)[number]) => number) => snapshotWork.reduce((s, w) => s + f(w), 0);
    console.log(`  the turn's snapshots together: ${ms(sum((w) => w.wallMs))} wall; worker busy ${ms(sum((w) => w.worker.wallMs))} (CPU ${ms(sum((w) => w.worker.cpuMs))}); ` +
      `main thread CPU ${ms(sum((w) => w.main.cpuMs))}`);
  }
  console.log(`  store growth: ${describeGrowth(turn1)}`);
  const manifests = (turn1.trees?.bytes ?? 0) + (turn1.snapshots?.bytes ?? 0);
  console.log(`  snapshot data written: ${kb(snapshotBytes(turn1))} for ${kb(changedBytes)} of changed files ` +
    `(blobs ${kb(turn1.blobs?.bytes ?? 0)} = ${((100 * (turn1.blobs?.bytes ?? 0)) / changedBytes).toFixed(0)}% of them; manifests and refs ${kb(manifests)})`);
  console.log(`Send -> request on the wire, right after a turn ended: ${ms(bigSendToWire)} (on the empty workspace at the start: ${ms(emptySendToWire)})`);
  console.log(`read-only command turn: snapshot data written ${snapshotBytes(readOnly)} bytes (${describeGrowth(readOnly) || 'nothing'}); ` +
    `worker busy ${ms(readOnlyWorker.wallMs)} for the whole turn; ${readOnlyCaptures.length} snapshot captures, ${ms(readOnlyCaptures.reduce((s, m) => s + (m.endUs - m.startUs) / 1000, 0))} together`);
  console.log(`  (blobs ${readOnly.blobs?.bytes ?? 0} bytes, trees ${readOnly.trees?.bytes ?? 0} bytes; the rest is the refs of the user message's checkpoint)`);
  console.log(`restore the first checkpoint: shown after ${ms(restoreShown - restoreStart)}, saved after ${ms(restoreSaved - restoreStart)}; ` +
    `worker busy ${ms(restoreWorker.wallMs)}; snapshot data written ${kb(snapshotBytes(growth(afterReadOnly, afterRestore)))}`);
  const fork = measures.find((m) => m.name === 'conch:fork');
  const restore = measures.find((m) => m.name === 'conch:restore');
  if (restore) console.log(`  the restore itself (conch:restore: diff, read, write): ${ms(restore.duration)}`);
  console.log(`fork from the second prompt: shown after ${ms(forkShown - forkStart)}, saved after ${ms(forkSaved - forkStart)}; ` +
    `snapshot data written ${kb(snapshotBytes(growth(afterRestore, afterFork)))} (${describeGrowth(growth(afterRestore, afterFork)) || 'nothing'})`);
  if (fork) console.log(`  the fork itself in the store (conch:fork): ${ms(fork.duration)}`);
  console.log(`storage.estimate() at the end: ${mb(usageAtEnd)} (after import: ${mb(usageAfterImport)})`);
  const byName = new Map<string, number[]>();
  for (const m of measures) byName.set(m.name, [...(byName.get(m.name) ?? []), m.duration]);
  for (const [name, durations] of byName) {
    const sorted = [...durations].sort((a, b) => a - b);
    console.log(`  app measure ${name}: ${durations.length}x, median ${ms(sorted[Math.floor(sorted.length / 2)])}, max ${ms(sorted[sorted.length - 1])}`);
  }
}

const { outDir, rebuilt } = await ensureAppBuild();
if (rebuilt) console.log('built the app into bench/results/dist');
const repo = generateBigRepo();
const zip = repoZip(repo);
const server = await startPreviewServer(outDir);
const mock = await startMockProvider();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.addInitScript({ content: RECORD_SAVES_AND_SENDS });
  await page.goto(server.url);
  await configureMockProvider(page, mock.url);
  await run(page, mock, repo, zip);
  console.log(`(load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores)`);
} finally {
  await browser.close();
  await mock.close();
  await server.close();
}
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, 'snapshot.json'), JSON.stringify(figures, null, 1));
