// `node` in the embedded runtime (issue 15): `node -e 1` cold (first use: WebAssembly compile, engine worker start,
// first run) and warm, and a CPU-bound script (a JSON round trip of a 5 MB document, a prime sieve to 2,000,000) run
// on each of node's engines (QuickJS, and the browser engine in its Node stand-in) and by this machine's real Node
// in the same run, with the ratio. Printed, never asserted.
// Targets: warm `node -e 1` under 100 ms; the CPU ratio is recorded to be improved, not hidden.
//
// The runtime is loaded through Vite's SSR module loader, as the app's build and the unit tests load it: the guest
// environment is a Vite virtual module (build/node-guest-bundle.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';
import type { createEmbeddedRuntime as CreateEmbeddedRuntime } from '../src/runtime/embedded';
import type * as EngineChoice from '../src/runtime/embedded/node/engine-choice';
import type * as StandIn from '../src/runtime/embedded/node/sandbox/node-stand-in';
import { CPU_SCRIPT, type CpuResult } from './lib/node-cpu-script';

const WARM_RUNS = 10;
/** The pause before each warm run in the "paced" series: an agent's commands come seconds apart, not back to back. */
const PACE_MS = 500;

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'error' });
try {
  const { createEmbeddedRuntime } = (await vite.ssrLoadModule('/src/runtime/embedded/index.ts')) as { createEmbeddedRuntime: typeof CreateEmbeddedRuntime };
  const { NodeEngineChoice } = (await vite.ssrLoadModule('/src/runtime/embedded/node/engine-choice.ts')) as typeof EngineChoice;
  const { createNodeSandboxEngine } = (await vite.ssrLoadModule('/src/runtime/embedded/node/sandbox/node-stand-in.ts')) as typeof StandIn;
  await vite.ssrLoadModule('/src/runtime/embedded/node/node-runner.ts'); // the module graph (and the guest bundle) is not part of a cold start in the app

  const dir = mkdtempSync(join(tmpdir(), 'conch-node-bench-'));
  writeFileSync(join(dir, 'cpu.js'), CPU_SCRIPT);
  const realStarted = performance.now();
  const real = spawnSync(process.execPath, ['cpu.js'], { cwd: dir, encoding: 'utf8' });
  const realWall = performance.now() - realStarted;
  rmSync(dir, { recursive: true, force: true });
  const native = JSON.parse(real.stdout) as CpuResult;
  const row = (label: string, result: CpuResult, wall: number) =>
    `${label.padEnd(16)} JSON 5 MB round trip ${result.jsonMs.toFixed(0).padStart(6)} ms   sieve to 2,000,000 ${result.sieveMs.toFixed(0).padStart(6)} ms   script ${result.totalMs.toFixed(0).padStart(6)} ms   wall ${wall.toFixed(0).padStart(6)} ms`;
  console.log(`CPU-bound script (${(native.bytes / 2 ** 20).toFixed(1)} MB JSON, ${native.items} items, ${native.primes} primes):`);
  console.log(row("this machine's node", native, realWall));

  // The browser engine runs here in its Node stand-in (the same relay, engine and guest, with Node's V8 in
  // worker_threads); its figures in Chromium come from the node-figures flow (e2e/node-figures.spec.ts).
  for (const engine of ['quickjs', 'browser'] as const) {
    const nodeEngines = new NodeEngineChoice();
    if (engine === 'browser') nodeEngines.set(createNodeSandboxEngine(), 'the Node stand-in');
    const runtime = createEmbeddedRuntime({ files: { 'cpu.js': CPU_SCRIPT }, nodeEngines });
    const time = async (command: string) => {
      const started = performance.now();
      const result = await runtime.exec(command);
      if (result.exitCode !== 0) throw new Error(`${command} failed: ${result.output}`);
      return { ms: performance.now() - started, output: result.output };
    };
    const cold = await time('node -e 1');
    const series = async (pauseMs: number) => {
      const times: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) {
        if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
        times.push((await time('node -e 1')).ms);
      }
      times.sort((a, b) => a - b);
      return `${times[Math.floor(times.length / 2)].toFixed(1)} ms (median of ${WARM_RUNS}, min ${times[0].toFixed(1)} ms)`;
    };
    console.log(`\n${engine}:`);
    console.log(`  node -e 1 cold (engine start, first run): ${cold.ms.toFixed(0)} ms`);
    console.log(`  node -e 1 warm, ${PACE_MS} ms apart (the next process prepared while idle): ${await series(PACE_MS)}`);
    console.log(`  node -e 1 warm, back to back (each run also prepares the next): ${await series(0)}`);
    const run = await time('node cpu.js');
    const result = JSON.parse(run.output) as CpuResult;
    console.log(`  ${row(engine, result, run.ms)}`);
    console.log(`  ratio ${engine}/node: JSON ${(result.jsonMs / native.jsonMs).toFixed(2)}x, sieve ${(result.sieveMs / native.sieveMs).toFixed(2)}x, script ${(result.totalMs / native.totalMs).toFixed(2)}x, wall ${(run.ms / realWall).toFixed(2)}x`);
    await runtime.dispose();
  }
} finally {
  await vite.close();
}
