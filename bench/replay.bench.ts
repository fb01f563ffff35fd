// Replay in the built app in Chromium (issue 23): bench/lib/long-transcript.ts's 5,000-message session opened in
// replay to its first step (from the Replay click until step 1's files are listed), and, on a session whose
// workspace is bench/lib/big-repo.ts's 20,000 files with a checkpoint at each of its user messages, each jump to
// the next user message from the timeline (until that step's tree and open file are shown), with the longest
// main-thread task during the jumps (a PerformanceObserver of long tasks). Targets: 500 ms, 100 ms, 50 ms.
// Prints figures; asserts nothing.
import type { Page } from '@playwright/test';
import type { Message } from '../src/ai/types';
import type { ObjectId } from '../src/runtime/object-id';
import { exportSessionFile } from '../src/store/files/session-file/session-file';
import { blobIdsOf, snapshotOfFiles, updateTree, type Tree } from '../src/store';
import { ensureAppBuild } from './lib/app-build';
import { generateBigRepo } from './lib/big-repo';
import { launchChromium } from './lib/chromium';
import { longTranscript } from './lib/long-transcript';
import { startPreviewServer } from './lib/servers';

const TURNS = 6;
const encoder = new TextEncoder();
const usage = { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };

function longSessionFile(): Buffer {
  return Buffer.from(exportSessionFile({
    session: { id: 'long', title: 'Long session', createdAt: Date.UTC(2026, 0, 5), model: 'mock-model', provider: 'openai-compatible' },
    messages: longTranscript(5000),
    workspace: new Map([['README.md', encoder.encode('# long\n')]]),
  }));
}

/** A session over the 20,000-file repo: each turn edits one file; a checkpoint at each user message. */
async function bigSessionFile(): Promise<Buffer> {
  const files = new Map(generateBigRepo().files.filter((f) => !f.path.startsWith('.git/') && !f.path.includes('node_modules/')).map((f) => [f.path, f.data]));
  const paths = [...files.keys()].filter((p) => p.endsWith('.ts'));
  const base = await snapshotOfFiles(files);
  const trees = new Map<ObjectId, Tree>(base.objects.trees);
  const blobs = new Map<ObjectId, Uint8Array>(base.objects.blobs);
  const source = { tree: async (id: ObjectId) => trees.get(id)! };
  const checkpoints = new Map<number, ObjectId>();
  const messages: Message[] = [];
  let root = base.root;
  for (let turn = 0; turn < TURNS; turn++) {
    const path = paths[turn * 997];
    const text = new TextDecoder().decode(files.get(path)!);
    const oldText = text.split('\n')[0];
    const newText = `${oldText} // turn ${turn}`;
    checkpoints.set(messages.length, root);
    messages.push({ role: 'user', content: `Turn ${turn}: change ${path}`, timestamp: 1 });
    messages.push({ role: 'assistant', content: [{ type: 'toolCall', id: `e${turn}`, name: 'edit', arguments: { path, edits: [{ oldText, newText }] } }], provider: 'p', model: 'm', usage, stopReason: 'toolUse', timestamp: 1 });
    messages.push({ role: 'toolResult', toolCallId: `e${turn}`, toolName: 'edit', content: [{ type: 'text', text: 'Applied 1 edit.' }], isError: false, timestamp: 1 });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Changed ${path}.` }], provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 1 });
    const data = encoder.encode(text.replace(oldText, newText));
    files.set(path, data);
    const id = (await blobIdsOf([[path, data]])).get(path)!;
    blobs.set(id, data);
    const built = await updateTree(source, root, new Map([[path, { path, kind: 'file' as const, id, size: data.length }]]));
    for (const [treeId, tree] of built.trees) trees.set(treeId, tree);
    root = built.root;
  }
  return Buffer.from(exportSessionFile({
    session: { id: 'big', title: 'Big workspace', createdAt: Date.UTC(2026, 0, 5), model: 'mock-model', provider: 'openai-compatible' },
    messages,
    workspace: files,
    snapshots: { checkpoints, trees, blobs },
  }));
}

async function importSession(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByTestId('import-session').setInputFiles({ name, mimeType: 'application/zip', buffer });
  await page.getByTestId('transfer-result').filter({ hasText: 'as a new session' }).waitFor({ timeout: 600_000 });
}

/** Runs `act` in the page and resolves with the ms until `ready()` holds there (checked on each DOM change). */
function timeInPage(page: Page, act: string, ready: string): Promise<number> {
  return page.evaluate(async ({ act, ready }) => {
    const isReady = new Function(`return (${ready})`) as () => boolean;
    const start = performance.now();
    (new Function(act) as () => void)();
    await new Promise<void>((resolve, reject) => {
      if (isReady()) return resolve();
      setTimeout(() => reject(new Error(`not ready after 60 s: ${ready}`)), 60_000);
      const observer = new MutationObserver(() => {
        if (isReady()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    return performance.now() - start;
  }, { act, ready });
}

const build = await ensureAppBuild();
const server = await startPreviewServer(build.outDir);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript(() => {
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  await page.goto(server.url);
  await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });

  await importSession(page, 'Long session.conch.zip', longSessionFile());
  const openMs = await timeInPage(
    page,
    `document.querySelector('header [data-testid="replay-open"]').click()`,
    `document.querySelector('[data-testid="replay-position"]')?.textContent.startsWith('1 / ') && document.querySelector('[data-testid="replay-files"][data-step="1"]') !== null`,
  );
  const steps = (await page.getByTestId('replay-position').textContent())?.split(' / ')[1];
  console.log(`open replay on the 5,000-message session (${steps} steps) to step 1: ${openMs.toFixed(0)} ms (target 500 ms)`);
  await page.getByTestId('replay-close').click();

  console.log('building and importing the 20,000-file session…');
  await importSession(page, 'Big workspace.conch.zip', await bigSessionFile());
  await page.locator('header [data-testid="replay-open"]').click();
  await page.locator('[data-testid="replay-files"][data-step="1"] [data-testid="replay-file"]').first().waitFor();
  await page.locator('[data-testid="replay-files"] [data-testid="replay-file"][data-kind="dir"]').first().click();
  // The first edit's step opens its file, which then stays open from step to step.
  await page.locator('[data-testid="replay-step"][data-index="1"]').click();
  await page.locator('[data-testid="replay-file-view"][data-step="2"]').waitFor();
  const jumps: number[] = [];
  for (let turn = 1; turn < TURNS; turn++) {
    const target = turn * 3 + 1; // each turn: user, tool, reply
    await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0));
    const ms = await timeInPage(
      page,
      `document.querySelector('[data-testid="replay-step"][data-index="${target - 1}"]').click()`,
      `document.querySelector('[data-testid="replay-files"][data-step="${target}"]') !== null && document.querySelector('[data-testid="replay-file-view"][data-step="${target}"]') !== null`,
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const longest = await page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));
    jumps.push(ms);
    console.log(`  to user message ${turn + 1} (step ${target}): ${ms.toFixed(0)} ms, longest task ${longest.toFixed(0)} ms`);
  }
  const sorted = [...jumps].sort((a, b) => a - b);
  console.log(`next user message on the 20,000-file workspace: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (target 100 ms, no task over 50 ms)`);
} finally {
  await browser.close();
  await server.close();
}
