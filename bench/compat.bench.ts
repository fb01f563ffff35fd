// The real-package compatibility score (issue 25): each package of bench/compat/corpus.json (published tarballs that
// ship their own tests, served with their dependency trees by a local registry) runs `npm install && npm test` in the
// embedded runtime and in real Node with real npm against the same registry, in the same run. Printed per package:
// pass or fail on each side, test counts, test time against Node; then the score (the share of packages whose tests
// go exactly as on Node: same pass or fail, same counts) and what still fails, with why. Printed, never asserted.
// COMPAT_ONLY=name,name runs a few packages only; COMPAT_VERBOSE=1 shows the output of the failing ones;
// COMPAT_DUMP=folder writes both sides' output there.
//
// The runtime is loaded through Vite's SSR module loader (its guest environment is a Vite virtual module).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'vite';
import type * as Runner from './compat/compat-runner';
import type * as Corpus from './compat/corpus';
import type * as Counts from './compat/test-counts';
import type * as Registry from '../src/runtime/embedded/npm/testing/fixture-registry';

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'error' });
const { readCorpus } = (await vite.ssrLoadModule('/bench/compat/corpus.ts')) as typeof Corpus;
const { runPackage, CORPUS_REGISTRY } = (await vite.ssrLoadModule('/bench/compat/compat-runner.ts')) as typeof Runner;
const { countsText } = (await vite.ssrLoadModule('/bench/compat/test-counts.ts')) as typeof Counts;
const { startFixtureRegistry } = (await vite.ssrLoadModule('/src/runtime/embedded/npm/testing/fixture-registry.ts')) as typeof Registry;

const only = (process.env.COMPAT_ONLY ?? '').split(',').filter(Boolean);
const corpus = readCorpus().filter((entry) => only.length === 0 || only.includes(entry.name));
const registry = await startFixtureRegistry({ folders: [CORPUS_REGISTRY] });
const npmCacheDir = mkdtempSync(join(tmpdir(), 'compat-npm-cache-'));
const results: Runner.PackageResult[] = [];

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const side = (result: Runner.SideResult) => `${result.passed ? 'pass' : `FAIL(${result.stage})`} ${countsText(result.counts).padStart(7)}`;
// COMPAT_ENGINES=quickjs or =browser runs one engine; by default both, side by side.
const engines = (process.env.COMPAT_ENGINES ?? 'quickjs,browser').split(',').filter((name): name is Runner.EngineName => name === 'quickjs' || name === 'browser');
console.log(`engines: ${engines.join(', ')} (the browser engine runs here in its Node stand-in: the same relay, engine and guest, with Node's V8)`);
console.log(`${'package'.padEnd(38)} ${engines.map((engine) => engine.padEnd(18)).join(' ')} ${'node'.padEnd(18)} ${`test time ${engines.join(' / ')} / node`.padEnd(36)} same`);
for (const entry of corpus) {
  const result = await runPackage(entry, { registryUrl: registry.url, npmCacheDir, timeoutMs: 180_000, engines });
  results.push(result);
  if (process.env.COMPAT_DUMP) {
    const base = join(process.env.COMPAT_DUMP, entry.name.replace('/', '+'));
    writeFileSync(`${base}.embedded.txt`, result.embedded.output);
    writeFileSync(`${base}.node.txt`, result.node.output);
  }
  const runs = engines.map((engine) => result.byEngine[engine]!);
  const ratio = (embedded: Runner.SideResult) => (result.node.testMs > 0 && embedded.stage === 'test' ? `${(embedded.testMs / result.node.testMs).toFixed(1)}×` : '-');
  const times = `${runs.map((run) => seconds(run.embedded.testMs)).join(' / ')} / ${seconds(result.node.testMs)} (${runs.map((run) => ratio(run.embedded)).join(', ')})`;
  const notes = [entry.test ? `test: ${entry.test}` : '', entry.spawns ? 'spawns' : ''].filter(Boolean).join('; ');
  console.log(`${`${entry.name}@${entry.version}`.padEnd(38)} ${runs.map((run) => side(run.embedded).padEnd(18)).join(' ')} ${side(result.node).padEnd(18)} ${times.padEnd(36)} ${runs.map((run) => (run.matches ? 'yes' : 'NO')).join(' ')}${notes ? `  (${notes})` : ''}`);
}
await registry.close();
rmSync(npmCacheDir, { recursive: true, force: true });

const kinds = (pick: (entry: Corpus.CorpusEntry) => string) => [...new Set(results.map((r) => pick(r.entry)))].map((k) => `${k} ${results.filter((r) => pick(r.entry) === k).length}`).join(', ');
console.log(`\ncorpus: ${results.length} packages (${kinds((e) => e.kind)}; runners: ${kinds((e) => e.runner)}; ${results.filter((r) => r.entry.spawns).length} spawn child processes)`);
console.log(`the corpus's test command replaces the package's own for ${results.filter((r) => r.entry.test).length} packages (their scripts need linters or coverage tools outside the corpus)`);
for (const engine of engines) {
  const matching = results.filter((result) => result.byEngine[engine]?.matches).length;
  const failOnNode = results.filter((result) => result.byEngine[engine]?.matches && !result.node.passed).length;
  console.log(`score, ${engine}: ${matching}/${results.length} = ${((100 * matching) / Math.max(1, results.length)).toFixed(0)}% of the corpus runs its tests exactly as on Node (same pass or fail, same counts)${failOnNode ? `; ${failOnNode} of them fail on Node too, the same way` : ''}`);
  const failing = results.filter((result) => !result.byEngine[engine]?.matches);
  if (failing.length === 0) continue;
  console.log(`still failing on ${engine}:`);
  for (const result of failing) console.log(`  ${result.entry.name}@${result.entry.version}: ${result.byEngine[engine]?.why}`);
  // COMPAT_VERBOSE=1 shows the embedded side's output of each failing package.
  if (process.env.COMPAT_VERBOSE) for (const result of failing) console.log(`\n### ${result.entry.name} (${engine})\n${result.byEngine[engine]?.embedded.output.slice(0, 4000)}`);
}
await vite.close();
process.exit(0);
