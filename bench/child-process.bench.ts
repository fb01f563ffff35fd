// child_process in the embedded node (issue 25): one script, run by the embedded node and by this machine's real Node
// in the same run, times from inside the process: `execSync('echo hi')` cold (the process's first, requiring
// child_process too) and warm (median of the next ones), `execSync('node -e 1')`, and an asynchronous spawn of a
// node child to its 'close', first and warm. Printed with the ratios, never asserted. Target: execSync('echo hi')
// warm <= 20 ms.
//
// The runtime is loaded through Vite's SSR module loader, as the app's build and the unit tests load it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';
import type { createEmbeddedRuntime as CreateEmbeddedRuntime } from '../src/runtime/embedded';

const SCRIPT = `
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (fn) => { const t = performance.now(); fn(); return performance.now() - t; };
const out = {};
out.echoCold = time(() => require('child_process').execSync('echo hi'));
const { execSync, spawn } = require('child_process');
out.echoWarm = median(Array.from({ length: 20 }, () => time(() => execSync('echo hi'))));
out.nodeSyncFirst = time(() => execSync('node -e 1'));
out.nodeSyncWarm = median(Array.from({ length: 5 }, () => time(() => execSync('node -e 1'))));
const spawnOnce = () => new Promise((resolve) => {
  const t = performance.now();
  spawn('node', ['-e', 'console.log(1)']).on('close', () => resolve(performance.now() - t));
});
(async () => {
  out.spawnNodeFirst = await spawnOnce();
  const warm = [];
  for (let i = 0; i < 5; i++) warm.push(await spawnOnce());
  out.spawnNodeWarm = median(warm);
  console.log(JSON.stringify(out));
})();
`;

type Figures = { echoCold: number; echoWarm: number; nodeSyncFirst: number; nodeSyncWarm: number; spawnNodeFirst: number; spawnNodeWarm: number };

const ROWS: [keyof Figures, string][] = [
  ['echoCold', "execSync('echo hi'), the process's first (with require)"],
  ['echoWarm', "execSync('echo hi') warm (median of 20); target <= 20 ms"],
  ['nodeSyncFirst', "execSync('node -e 1'), first"],
  ['nodeSyncWarm', "execSync('node -e 1') warm (median of 5)"],
  ['spawnNodeFirst', "spawn('node', ['-e', ...]) to 'close', first"],
  ['spawnNodeWarm', "spawn('node', ...) to 'close' warm (median of 5)"],
];

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'error' });
try {
  const { createEmbeddedRuntime } = (await vite.ssrLoadModule('/src/runtime/embedded/index.ts')) as { createEmbeddedRuntime: typeof CreateEmbeddedRuntime };
  await vite.ssrLoadModule('/src/runtime/embedded/node/node-runner.ts');
  const runtime = createEmbeddedRuntime({ files: { 'bench.js': SCRIPT } });
  const run = async () => {
    const started = performance.now();
    const result = await runtime.exec('node bench.js');
    if (result.exitCode !== 0) throw new Error(`node bench.js failed: ${result.output}`);
    return { figures: JSON.parse(result.output) as Figures, wall: performance.now() - started };
  };
  const first = await run(); // the engine's first start (WebAssembly compile) is node's cold start, measured in node.bench.ts
  const second = await run();
  runtime.dispose();

  const dir = mkdtempSync(join(tmpdir(), 'conch-child-process-bench-'));
  writeFileSync(join(dir, 'bench.js'), SCRIPT);
  const realStarted = performance.now();
  const real = spawnSync(process.execPath, ['bench.js'], { cwd: dir, encoding: 'utf8' });
  const realWall = performance.now() - realStarted;
  rmSync(dir, { recursive: true, force: true });
  if (real.status !== 0) throw new Error(`real node failed: ${real.stderr}`);
  const native = JSON.parse(real.stdout) as Figures;

  const ms = (value: number) => `${value.toFixed(1).padStart(8)} ms`;
  console.log(`${'child_process, timed inside the process'.padEnd(58)} ${'embedded'.padStart(11)} ${'2nd run'.padStart(11)} ${'real Node'.padStart(11)}   ratio (2nd run / Node)`);
  for (const [key, label] of ROWS) {
    console.log(`${label.padEnd(58)} ${ms(first.figures[key])} ${ms(second.figures[key])} ${ms(native[key])}   ${(second.figures[key] / native[key]).toFixed(1)}x`);
  }
  console.log(`${'the whole script, wall'.padEnd(58)} ${ms(first.wall)} ${ms(second.wall)} ${ms(realWall)}   ${(second.wall / realWall).toFixed(1)}x`);
} finally {
  await vite.close();
}
