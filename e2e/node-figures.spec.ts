// node's figures in this Chromium (issue 26's table): the CPU script (a 5 MB JSON round trip, a prime sieve to
// 2,000,000, each timed inside the program) on the browser engine and on QuickJS in the built app, beside this
// machine's Node in the same run; and `node -e 1` cold (the first run after the page loaded) and warm, timed from the
// key press to the first frame showing its marker, less the terminal's own round trip. Printed; the test asserts only
// that each run printed a whole result.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { CPU_SCRIPT, type CpuResult } from '../bench/lib/node-cpu-script';
import { timeInTerminal } from '../bench/lib/terminal-timing';

const WARM_RUNS = 7;

/** Times `command` in the terminal (see timeInTerminal), failing the test if it did not finish. */
async function timed(page: Page, command: string, marker: string): Promise<number> {
  const ms = await timeInTerminal(page, command, marker);
  expect(ms, `${command} finished`).toBeGreaterThan(0);
  return ms;
}

/** Runs the CPU script with `flags` and reads its result back as one short line (the JSON would wrap on screen). */
async function cpuRun(page: Page, shell: Locator, flags: string, marker: string): Promise<CpuResult> {
  await timed(page, `clear; node ${flags} cpu.js > out.json && node -p "const r = require('./out.json'); 'R ' + [r.jsonMs, r.sieveMs, r.totalMs, r.items, r.primes, r.bytes].map(Math.round).join(' ')"`, marker);
  const line = (await shell.locator('.xterm-rows').innerText()).split('\n').map((text) => text.trim()).filter((text) => /^R [\d ]+$/.test(text)).pop() ?? '';
  const [jsonMs, sieveMs, totalMs, items, primes, bytes] = line.slice(2).split(' ').map(Number);
  return { jsonMs, sieveMs, totalMs, items, primes, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

test('node on the browser engine and on QuickJS against this machine\'s Node: the CPU script and node -e 1', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByTestId('import-zip').setInputFiles({ name: 'cpu.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ 'cpu-main/cpu.js': new TextEncoder().encode(CPU_SCRIPT) })) });
  await expect(page.getByTestId('import-result')).toHaveAttribute('data-kind', 'success', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Terminal' }).click();
  const shell = page.getByTestId('terminal').getByTestId('terminal-shell');
  await expect(shell.locator('.xterm-rows')).toContainText('$ ', { timeout: 15_000 });
  await shell.click();

  const echo = median([await timed(page, 'echo warm', 'ECHO-A'), await timed(page, 'echo warm', 'ECHO-B'), await timed(page, 'echo warm', 'ECHO-C')]);
  const cold = (await timed(page, 'node -e 1', 'COLD')) - echo;
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    await page.waitForTimeout(500); // an agent's commands come seconds apart: the next process is prepared meanwhile
    warm.push((await timed(page, 'node -e 1', `WARM-${i}`)) - echo);
  }
  const quickWarm: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.waitForTimeout(500);
    quickWarm.push((await timed(page, 'node --engine=quickjs -e 1', `QWARM-${i}`)) - echo);
  }

  const browser = await cpuRun(page, shell, '', 'CPU-BROWSER');
  const quickjs = await cpuRun(page, shell, '--engine=quickjs', 'CPU-QUICKJS');
  const dir = mkdtempSync(join(tmpdir(), 'conch-node-figures-'));
  writeFileSync(join(dir, 'cpu.js'), CPU_SCRIPT);
  const native = JSON.parse(spawnSync(process.execPath, ['cpu.js'], { cwd: dir, encoding: 'utf8' }).stdout) as CpuResult;
  rmSync(dir, { recursive: true, force: true });
  for (const result of [browser, quickjs]) expect(result).toMatchObject({ items: native.items, primes: native.primes, bytes: native.bytes });

  const ratio = (mine: number, theirs: number) => `${(mine / theirs).toFixed(2)}x`;
  console.log(`  terminal round trip (echo): ${echo.toFixed(0)} ms, taken off the node rows`);
  console.log(`  node -e 1, browser engine: cold ${cold.toFixed(0)} ms (target <= 300), warm median ${median(warm).toFixed(0)} ms of ${WARM_RUNS} (target <= 30)`);
  console.log(`  node -e 1, QuickJS: warm median ${median(quickWarm).toFixed(0)} ms`);
  console.log(`  CPU script, ms (browser engine | QuickJS | this machine's Node):`);
  console.log(`    prime sieve to 2,000,000: ${browser.sieveMs.toFixed(0)} | ${quickjs.sieveMs.toFixed(0)} | ${native.sieveMs.toFixed(0)}  -> browser ${ratio(browser.sieveMs, native.sieveMs)}, QuickJS ${ratio(quickjs.sieveMs, native.sieveMs)} (target <= 1.5x)`);
  console.log(`    5 MB JSON round trip:     ${browser.jsonMs.toFixed(0)} | ${quickjs.jsonMs.toFixed(0)} | ${native.jsonMs.toFixed(0)}  -> browser ${ratio(browser.jsonMs, native.jsonMs)}, QuickJS ${ratio(quickjs.jsonMs, native.jsonMs)} (target <= 1.5x)`);
  console.log(`    whole script:             ${browser.totalMs.toFixed(0)} | ${quickjs.totalMs.toFixed(0)} | ${native.totalMs.toFixed(0)}  -> browser ${ratio(browser.totalMs, native.totalMs)}, QuickJS ${ratio(quickjs.totalMs, native.totalMs)}`);
});
