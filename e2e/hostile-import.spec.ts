// A shared session file is someone else's data: whatever its messages look like, importing and opening it must never
// freeze the tab. Messages of 1 MB and 50 MB, each in three shapes (one run of one character, one long line of random
// text, 100,000 short lines), are imported through the session-file input while a long-task observer watches the
// page: no main-thread task may exceed 200 ms. The message shows bounded, with "Show more".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { zipSync } from 'fflate';
import { expect, test } from './fixtures';

type Shape = 'one-run' | 'random-line' | 'short-lines';
const MB = 1024 * 1024;

function messageText(shape: Shape, bytes: number): string {
  if (shape === 'one-run') return 'A'.repeat(bytes);
  if (shape === 'random-line') {
    const letters = Buffer.from('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
    const bytesOut = Buffer.allocUnsafe(bytes);
    let seed = 7;
    for (let i = 0; i < bytes; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      bytesOut[i] = letters[seed % letters.length];
    }
    return bytesOut.toString('latin1');
  }
  const lineLength = Math.max(2, Math.floor(bytes / 100_000));
  return `${'x'.repeat(lineLength - 1)}\n`.repeat(100_000);
}

/** A session file (stored, not deflated, as any zip tool may make it) with one user message and one short reply. */
function sessionFile(shape: Shape, bytes: number, text: string): Uint8Array {
  const header = { type: 'header', format: 'conch-session', version: 1, id: `hostile-${shape}`, title: `Hostile ${shape} ${bytes / MB} MB`,
    createdAt: Date.UTC(2026, 10, 1), model: 'mock-model', provider: 'openai-compatible', exportedAt: Date.UTC(2026, 10, 2) };
  const user = { role: 'user', content: text, timestamp: Date.UTC(2026, 10, 1) };
  const reply = { role: 'assistant', content: [{ type: 'text', text: 'That is a lot of text.' }], provider: 'openai-compatible', model: 'mock-model',
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, stopReason: 'stop', timestamp: Date.UTC(2026, 10, 1, 0, 1) };
  const jsonl = [header, { type: 'entry', seq: 0, message: user }, { type: 'entry', seq: 1, message: reply }].map((l) => JSON.stringify(l)).join('\n');
  return zipSync({ 'session.jsonl': [new TextEncoder().encode(`${jsonl}\n`), { level: 0 }], 'workspace/README.md': new TextEncoder().encode('# hostile\n') });
}

async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const durations: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = durations;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) durations.push(Math.round(entry.duration));
    }).observe({ type: 'longtask' });
  });
}

const longTasks = (page: Page) => page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));

/** Waits for two animation frames, so the work that opening triggered has been laid out and painted. */
const settled = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Imports `path` and waits until its message shows; returns the main-thread tasks over 50 ms meanwhile. */
async function importAndMeasure(page: Page, path: string, length: number): Promise<number[]> {
  await longTasks(page);
  await page.getByTestId('import-session').setInputFiles(path);
  // Waiting polls the page lightly: Playwright's own retrying checks run on the page's main thread too.
  await page.waitForFunction(
    (length) => document.querySelector('[data-testid="message"][data-role="user"] [data-testid="long-text"]')?.getAttribute('data-length') === String(length),
    length,
    { polling: 250, timeout: 90_000 },
  );
  await settled(page);
  return longTasks(page);
}

test('hostile session files open without freezing the tab', async ({ page }) => {
  test.setTimeout(300_000);
  const dir = mkdtempSync(join(tmpdir(), 'conch-hostile-'));
  try {
    await page.goto('/');
    await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await watchLongTasks(page);
    // The first import loads the reader's code; that one-time cost is not the file's.
    const warmUp = join(dir, 'warm-up.conch.zip');
    writeFileSync(warmUp, sessionFile('one-run', 64 * 1024, 'w'.repeat(64 * 1024)));
    await importAndMeasure(page, warmUp, 64 * 1024);
    const report: string[] = [];
    for (const size of [1 * MB, 50 * MB]) {
      for (const shape of ['one-run', 'random-line', 'short-lines'] as Shape[]) {
        const path = join(dir, `${shape}-${size / MB}mb.conch.zip`);
        const text = messageText(shape, size);
        writeFileSync(path, sessionFile(shape, size, text));
        let tasks = await importAndMeasure(page, path, text.length);
        const first = Math.max(0, ...tasks);
        // A freeze caused by the file happens every time; a spike from a machine busy with other work does not. So
        // a case over the limit is imported once more, and the second measurement decides.
        if (first > 200) tasks = await importAndMeasure(page, path, text.length);
        await expect(page.getByTestId('transfer-result')).toContainText(`Hostile ${shape} ${size / MB} MB`);
        await expect(page.locator('[data-testid="message"][data-role="assistant"]')).toContainText('That is a lot of text.');
        const longest = Math.max(0, ...tasks);
        report.push(`${shape} ${size / MB} MB: longest main-thread task ${longest} ms${first > 200 ? ` (first try ${first} ms)` : ''}`);
        expect(longest, `${shape}, ${size / MB} MB: main-thread tasks ${tasks.join(', ')} ms`).toBeLessThanOrEqual(200);
        rmSync(path);
      }
    }
    console.log(report.join('\n'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
