// Search on a real-sized repo (bench/lib/big-repo.ts: 20,000 files, ~48 MB): three patterns through the grep tool
// and through `rg` in the sandbox's shell, and the find tool, each compared with real ripgrep on the same files on
// disk, timed in the same run. Twice: in Node with the embedded runtime in-process, and in Chromium with the app's
// embedded runtime in its Web Worker (the tools run in the page, the search in the worker). Targets (Chromium): grep
// tool and `rg` in bash at most 4x ripgrep, find at most 150 ms. Prints figures and writes
// bench/results/search.json; asserts nothing. SEARCH_BENCH_CASES=grep,find (label prefixes) runs only some cases.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { generateBigRepo, repoZip, writeRepoToDisk, type BigRepo } from './lib/big-repo';
import { launchChromium } from './lib/chromium';
import { blankDevPage } from './lib/dev-page';
import { RESULTS_DIR } from './lib/paths';
import { AFTER_CHANGE_CASES, SEARCH_CASES, timeCase, type SearchCase } from './lib/search-cases';
import type * as SearchPage from './lib/search-page';
import { startDevServer } from './lib/servers';

const RUNS = 5;
// Outside any git checkout: ripgrep applies the .gitignore files of the folders above the one it searches.
const DISK_REPO = join(tmpdir(), 'conch-search-bench', 'big-repo');

type Row = { label: string; conchMs: number[]; ripgrepMs: number[]; conchFound: number; ripgrepFound: number };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function ensureRipgrep(): void {
  if (spawnSync('rg', ['--version']).status === 0) return;
  console.log('ripgrep is missing; installing it with apt-get');
  const install = spawnSync('apt-get', ['install', '-y', '-q', 'ripgrep'], { stdio: 'inherit' });
  if (install.status !== 0) throw new Error('Could not install ripgrep (apt-get install -y ripgrep); the bench needs it to compare.');
}

/** The repo on disk, written again only when the generator's output changed. */
async function ensureOnDisk(repo: BigRepo): Promise<void> {
  const stamp = join(DISK_REPO, '.bench-stamp');
  const expected = `${repo.files.length} files, ${repo.sourceBytes} bytes`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === expected) return;
  await writeRepoToDisk(repo, DISK_REPO);
  writeFileSync(stamp, expected);
}

/** ripgrep's wall time (process start to exit, as the shell would see it) after a warm-up, and its output lines. */
function timeRipgrep(args: string[]): { ms: number[]; found: number } {
  const run = () => {
    const started = performance.now();
    // stdin closed: ripgrep searches a readable stdin instead of the folder.
    const result = spawnSync('rg', args, { cwd: DISK_REPO, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`rg ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
    return { ms, found: result.stdout.toString().split('\n').filter(Boolean).length };
  };
  run();
  const runs = Array.from({ length: RUNS }, run);
  return { ms: runs.map((r) => r.ms), found: runs[0].found };
}

function report(title: string, rows: Row[]): void {
  console.log(`\n${title} (median of ${RUNS} after a warm-up; ripgrep timed in the same run, on the same files on disk)`);
  for (const row of rows) {
    const conch = median(row.conchMs);
    const rg = median(row.ripgrepMs);
    const agree = row.conchFound === row.ripgrepFound ? `${row.conchFound} found by both` : `found ${row.conchFound} vs ripgrep ${row.ripgrepFound}`;
    console.log(`  ${row.label.padEnd(54)} ${conch.toFixed(0).padStart(6)} ms   ripgrep ${rg.toFixed(0).padStart(5)} ms   ${(conch / rg).toFixed(2).padStart(5)}x   (${agree})`);
  }
}

type Measure = (searchCase: SearchCase, index: number, afterChange: boolean) => Promise<{ ms: number[]; found: number }>;

/** Every case, then the tools again with each search right after a file was written (the tree index rebuilt). */
async function measureCases(measure: Measure): Promise<Row[]> {
  const rows: Row[] = [];
  const only = process.env.SEARCH_BENCH_CASES?.split(',');
  const wanted = (searchCase: SearchCase) => !only || only.some((prefix) => searchCase.label.startsWith(prefix));
  const plan = [
    ...SEARCH_CASES.map((searchCase, index) => ({ searchCase, index, afterChange: false })),
    ...AFTER_CHANGE_CASES.map((index) => ({ searchCase: SEARCH_CASES[index], index, afterChange: true })),
  ];
  for (const { searchCase, index, afterChange } of plan) {
    if (!wanted(searchCase)) continue;
    const ripgrep = timeRipgrep(searchCase.ripgrep);
    const conch = await measure(searchCase, index, afterChange);
    const label = afterChange ? `${searchCase.label}, after a change` : searchCase.label;
    rows.push({ label, conchMs: conch.ms, ripgrepMs: ripgrep.ms, conchFound: conch.found, ripgrepFound: ripgrep.found });
  }
  return rows;
}

async function inNode(repo: BigRepo): Promise<Row[]> {
  const runtime = createEmbeddedRuntime();
  await runtime.importFiles(repo.files);
  try {
    return await measureCases((searchCase, _index, afterChange) => timeCase(runtime, searchCase, RUNS, afterChange));
  } finally {
    await runtime.dispose();
  }
}

async function inChromium(repo: BigRepo): Promise<Row[]> {
  const zip = repoZip(repo);
  const browser = await launchChromium();
  const dev = await startDevServer();
  try {
    const page = await blankDevPage(browser, dev.url);
    await page.route(`${dev.url}/__bench/big-repo.zip`, (route) => route.fulfill({ contentType: 'application/zip', body: Buffer.from(zip) }));
    const module = '/bench/lib/search-page.ts';
    const files = await page.evaluate(
      async ({ module, url }) => ((await import(/* @vite-ignore */ module)) as typeof SearchPage).loadRepo(url),
      { module, url: `${dev.url}/__bench/big-repo.zip` },
    );
    console.log(`\nChromium: imported ${files.toLocaleString()} files into the worker runtime (the app's zip import)`);
    return await measureCases((_case, index, afterChange) =>
      page.evaluate(
        async ({ module, index, runs, afterChange }) =>
          ((await import(/* @vite-ignore */ module)) as typeof SearchPage).timeSearchCase(index, runs, afterChange),
        { module, index, runs: RUNS, afterChange },
      ),
    );
  } finally {
    await dev.close();
    await browser.close();
  }
}

ensureRipgrep();
const repo = generateBigRepo();
await ensureOnDisk(repo);
console.log(`repo: ${repo.sourceFiles.toLocaleString()} source files, ${(repo.sourceBytes / 1024 ** 2).toFixed(1)} MB ` +
  `(${repo.files.length.toLocaleString()} files with .git, ignored output and node_modules); ${spawnSync('rg', ['--version']).stdout.toString().split('\n')[0]}`);
const node = await inNode(repo);
report('Node, embedded runtime in-process', node);
const chromium = await inChromium(repo);
report('Chromium, embedded runtime in its Web Worker, tools in the page', chromium);
const worst = (rows: Row[], prefix: string) => Math.max(0, ...rows.filter((r) => r.label.startsWith(prefix)).map((r) => median(r.conchMs) / median(r.ripgrepMs)));
const find = chromium.find((row) => row.label === 'find tool, *.ts');
const findAfterChange = chromium.find((row) => row.label === 'find tool, *.ts, after a change');
console.log(`\ntargets in Chromium: grep tool <= 4x ripgrep (worst ${worst(chromium, 'grep').toFixed(2)}x), ` +
  `rg in bash <= 4x (worst ${worst(chromium, 'rg').toFixed(2)}x), find <= 150 ms (${find ? median(find.conchMs).toFixed(0) : '?'} ms; ` +
  `${findAfterChange ? median(findAfterChange.conchMs).toFixed(0) : '?'} ms right after a change)`);
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, 'search.json'), JSON.stringify({ node, chromium }, null, 1));
