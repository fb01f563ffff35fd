// Opening a 10 MB session file from a `?session=` link in the built app in Chromium (issue 23's target: at most 3 s on
// loopback to step 1), served by a loopback host with CORS on another port. Timed from the Open click to the imported
// session selected with the page at #replay=1 (the replay view, built apart, starts from there); the fetch and the
// import (validation in the reader's worker, then the store) are printed beside from the app's own measures. The
// file is shaped as a real session's: a long transcript and a workspace of a few hundred files, some incompressible.
// Run with `npm run bench -- replay` or `npm run bench -- link-import`. Asserts nothing.
import { randomBytes } from 'node:crypto';
import { zipSync, type Zippable } from 'fflate';
import { startSessionFileHost } from '../e2e/session-file-host';
import { ensureAppBuild } from './lib/app-build';
import { launchChromium } from './lib/chromium';
import { startPreviewServer } from './lib/servers';

const enc = new TextEncoder();
const RUNS = 3;

/** A session file of about `megabytes` MB: 400 messages, 300 source files, and binary assets to make up the size. */
function sessionFile(megabytes: number): Uint8Array {
  const at = Date.UTC(2026, 10, 1);
  const lines: unknown[] = [{ type: 'header', format: 'conch-session', version: 1, id: 'bench-link', title: 'Bench: a shared session', createdAt: at, model: 'mock-model', provider: 'openai-compatible', exportedAt: at }];
  for (let seq = 0; seq < 400; seq++) {
    const message = seq % 2 === 0
      ? { role: 'user', content: `Step ${seq}: change module ${seq % 300} and explain why. ${'context '.repeat(40)}`, timestamp: at + seq * 1000 }
      : { role: 'assistant', content: [{ type: 'text', text: `Changed module ${seq % 300}. ${'The reasoning goes here. '.repeat(60)}` }], provider: 'openai-compatible', model: 'mock-model',
          usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } }, stopReason: 'stop', timestamp: at + seq * 1000 };
    lines.push({ type: 'entry', seq, message });
  }
  const zip: Zippable = { 'session.jsonl': enc.encode(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`) };
  for (let i = 0; i < 300; i++) zip[`workspace/src/module-${i}.ts`] = enc.encode(`export const value${i} = ${i};\n${'// filler line of source\n'.repeat(200)}`);
  const packed = zipSync(zip).length;
  const assets = Math.max(0, megabytes * 1024 ** 2 - packed);
  for (let i = 0; i < 8; i++) zip[`workspace/assets/blob-${i}.bin`] = [new Uint8Array(randomBytes(Math.floor(assets / 8))), { level: 0 }];
  return zipSync(zip);
}

const file = sessionFile(10);
const host = await startSessionFileHost();
host.put('bench.conch.zip', file);
const build = await ensureAppBuild();
const server = await startPreviewServer(build.outDir);
const browser = await launchChromium();

try {
  const link = `${server.url}/?session=${encodeURIComponent(`${host.url}/cors/bench.conch.zip`)}`;
  const figures: string[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(link);
    await page.locator('[data-testid="runtime-status"][data-state="ready"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="session-item"]').first().waitFor({ state: 'attached', timeout: 60_000 });
    await page.locator('[data-testid="link-import-open"]:not([disabled])').waitFor({ timeout: 30_000 });
    const started = Date.now();
    await page.getByTestId('link-import-open').click();
    await page.waitForFunction(() => location.hash === '#replay=1' && document.querySelector('[data-testid="session-item"][aria-current="true"]')?.textContent?.includes('(imported)'), undefined, { timeout: 60_000, polling: 20 });
    const ms = Date.now() - started;
    const error = await page.getByTestId('link-import-error').textContent().catch(() => null);
    if (error) throw new Error(`The link import failed: ${error}`);
    const phases = await page.evaluate(() =>
      performance.getEntriesByType('measure').filter((m) => m.name === 'conch:link-fetch' || m.name === 'conch:link-import').map((m) => `${m.name.slice(6)} ${Math.round(m.duration)} ms`),
    );
    figures.push(`run ${run}: ${ms} ms from Open to the imported session at #replay=1 (${phases.join(', ')})`);
    await context.close();
  }
  console.log(`link import of a ${(file.length / 1024 ** 2).toFixed(1)} MB session file over loopback (target ≤ 3000 ms):`);
  for (const line of figures) console.log(`  ${line}`);
} finally {
  await browser.close();
  await server.close();
  await host.close();
}
