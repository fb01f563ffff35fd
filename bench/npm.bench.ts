// `npm install` in the embedded runtime (issue 16), against the local fixture registry (real tarballs of
// shell-quote 1.6.1's and tape 4.0.0's trees): cold (empty cache, everything from the registry), cached (a fresh
// workspace with the lockfile, tarballs from the cache, no network), and up to date (the same workspace again), each
// with the registry answering at once and with 50 ms of latency per request, as a registry across the internet does.
// Printed, never asserted.
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { memoryPackageCache } from '../src/runtime/embedded/npm/environment';
import { startFixtureRegistry } from '../src/runtime/embedded/npm/testing/fixture-registry';

const PROJECT = JSON.stringify({
  name: 'bench',
  version: '1.0.0',
  dependencies: { 'shell-quote': '1.6.1', 'deep-equal': '~0.1.0' },
  devDependencies: { tape: '^4.0.0' },
});
const RUNS = 5;

async function timed(run: () => Promise<{ output: string; exitCode: number | null }>): Promise<number> {
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  if (result.exitCode !== 0) throw new Error(`install failed:\n${result.output}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const latencyMs of [0, 50]) {
  const registry = await startFixtureRegistry({ latencyMs });
  const npm = (cache = memoryPackageCache(), files: Record<string, string | Uint8Array> = { 'package.json': PROJECT }) =>
    createEmbeddedRuntime({ files, npm: { registry: () => registry.url, cache } });
  const cold: number[] = [];
  const cached: number[] = [];
  const upToDate: number[] = [];
  let packages = '';
  for (let i = 0; i < RUNS; i++) {
    const cache = memoryPackageCache();
    const first = npm(cache);
    cold.push(await timed(() => first.exec('npm install')));
    packages = /resolved (\d+) packages/.exec((await first.exec('npm install')).output)?.[1] ?? '?';
    upToDate.push(await timed(() => first.exec('npm install')));
    const second = npm(cache, { 'package.json': PROJECT, 'package-lock.json': await first.readFile('package-lock.json') });
    const requests = registry.requests.length;
    cached.push(await timed(() => second.exec('npm install')));
    if (registry.requests.length !== requests) throw new Error('the cached install used the network');
    await first.dispose();
    await second.dispose();
  }
  await registry.close();
  console.log(`registry latency ${latencyMs} ms, ${packages} packages (median of ${RUNS}):`);
  console.log(`  cold install (empty cache)            ${median(cold).toFixed(0).padStart(6)} ms`);
  console.log(`  cached install (lockfile, no network) ${median(cached).toFixed(0).padStart(6)} ms`);
  console.log(`  up to date (same workspace)           ${median(upToDate).toFixed(0).padStart(6)} ms`);
}
process.exit(0);
