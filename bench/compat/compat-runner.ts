// Runs one corpus package's own tests twice, the same way: in the embedded runtime (createEmbeddedRuntime, its npm
// pointed at the fixture registry) and in real Node with real npm against that same registry, in a scratch folder.
// Each side gets the package's published files as the project, `npm install`, then `npm test`. Two things differ
// from the package as published, both in package.json only (the code is never changed): devDependencies are the
// corpus's (the test tools the test command uses, not linters or coverage tools), and scripts.test is the corpus's
// command where the package's own needs tools outside it.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEmbeddedRuntime } from '../../src/runtime/embedded';
import { NodeEngineChoice } from '../../src/runtime/embedded/node/engine-choice';
import { createNodeSandboxEngine } from '../../src/runtime/embedded/node/sandbox/node-stand-in';
import { memoryPackageCache, type PackageCache } from '../../src/runtime/embedded/npm/environment';
import { unpackTarball } from '../../src/runtime/embedded/npm/tarball';
import type { CorpusEntry } from './corpus';
import { countsText, parseTestCounts, type TestCounts } from './test-counts';

export const CORPUS_REGISTRY = new URL('./registry/', import.meta.url);
/** The npm tests' fixtures, which the corpus registry does not copy (the registry serves both). */
const SHARED_REGISTRY = new URL('../../src/runtime/embedded/npm/testing/registry/', import.meta.url);

export type SideResult = {
  /** The install and the tests both exited 0. */
  passed: boolean;
  /** Where it stopped: the install or the tests. */
  stage: 'install' | 'test';
  counts: TestCounts | null;
  installMs: number;
  testMs: number;
  output: string;
};

export type EngineName = 'quickjs' | 'browser';

/** One engine's side of a package, compared with Node's. */
export type EngineResult = { embedded: SideResult; matches: boolean; why: string | null };

export type PackageResult = {
  entry: CorpusEntry;
  /** The first engine's side (options.engines[0]). */
  embedded: SideResult;
  /** Each engine's side, by engine. */
  byEngine: Partial<Record<EngineName, EngineResult>>;
  node: SideResult;
  /** Same pass or fail and the same counts on both sides. */
  matches: boolean;
  /** Why the embedded side differs, in one line (null when it matches). */
  why: string | null;
};

/** `engines`: which of node's engines run the embedded side (default QuickJS; the browser engine runs in its Node stand-in). */
export type RunOptions = { registryUrl: string; timeoutMs?: number; cache?: PackageCache; npmCacheDir?: string; engines?: EngineName[] };

/** Both sides of one package, the embedded first (on each engine asked for). */
export async function runPackage(entry: CorpusEntry, options: RunOptions): Promise<PackageResult> {
  const project = await projectFiles(entry);
  const engines = options.engines ?? ['quickjs'];
  const sides: [EngineName, SideResult][] = [];
  for (const engine of engines) sides.push([engine, await runEmbedded(project, options, engine)]);
  const node = await runNode(project, options);
  const byEngine: PackageResult['byEngine'] = {};
  for (const [engine, embedded] of sides) {
    const matches = embedded.passed === node.passed && embedded.stage === node.stage && sameCounts(embedded.counts, node.counts);
    byEngine[engine] = { embedded, matches, why: matches ? null : reason(embedded, node) };
  }
  const first = byEngine[engines[0]]!;
  return { entry, embedded: first.embedded, byEngine, node, matches: first.matches, why: first.why };
}

export type Project = { files: Record<string, Uint8Array>; /** Paths the tarball marks executable (a test may run one). */ executables: string[] };

/** The package's published files, package.json adjusted as the header says. */
export async function projectFiles(entry: CorpusEntry): Promise<Project> {
  const fileName = `${entry.name.replace(/^@/, '').replace('/', '-')}-${entry.version}.tgz`;
  const own = new URL(fileName, CORPUS_REGISTRY);
  const tarball = new Uint8Array(readFileSync(existsSync(own) ? own : new URL(fileName, SHARED_REGISTRY)));
  const unpacked = await unpackTarball(tarball);
  const files = Object.fromEntries(unpacked.map((file) => [file.path, file.data]));
  const executables = unpacked.filter((file) => ((file.mode ?? 0) & 0o111) !== 0).map((file) => file.path);
  const manifest = JSON.parse(new TextDecoder().decode(files['package.json'])) as Record<string, unknown>;
  manifest.devDependencies = entry.devDependencies;
  if (entry.test) {
    // The package's pretest and posttest belong to its own test command (qs's lint and readme check).
    const { pretest: _pre, posttest: _post, ...scripts } = (manifest.scripts ?? {}) as Record<string, string>;
    manifest.scripts = { ...scripts, test: entry.test };
  }
  files['package.json'] = new TextEncoder().encode(JSON.stringify(manifest, null, 2));
  return { files, executables };
}

async function runEmbedded({ files, executables }: Project, options: RunOptions, engine: EngineName): Promise<SideResult> {
  const nodeEngines = new NodeEngineChoice();
  if (engine === 'browser') nodeEngines.set(createNodeSandboxEngine(), "the browser engine in the sandbox frame's Node stand-in");
  const runtime = createEmbeddedRuntime({ files, nodeEngines, npm: { registry: () => options.registryUrl, cache: options.cache ?? memoryPackageCache() } });
  const timeoutMs = options.timeoutMs ?? 120_000;
  try {
    if (executables.length > 0) await runtime.exec(`chmod +x ${executables.map((path) => `'${path}'`).join(' ')}`);
    return await twoSteps((command) => runtime.exec(command, { timeoutMs }));
  } finally {
    await runtime.dispose();
  }
}

async function runNode({ files, executables }: Project, options: RunOptions): Promise<SideResult> {
  const dir = mkdtempSync(join(tmpdir(), 'compat-'));
  try {
    for (const [path, data] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data, { mode: executables.includes(path) ? 0o755 : 0o644 });
    }
    // --ignore-scripts: npm 10 runs the root project's prepublish and prepare on install (its authors' build steps:
    // qs's bundling, mime's types.json from mime-db), which the embedded npm does not; neither is part of the tests.
    const flags = `--registry ${options.registryUrl} --no-audit --no-fund --ignore-scripts${options.npmCacheDir ? ` --cache ${options.npmCacheDir}` : ''}`;
    return await twoSteps((command) => shell(command.replace(/^npm install$/, `npm install ${flags}`), dir, options.timeoutMs ?? 120_000));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function twoSteps(run: (command: string) => Promise<{ output: string; exitCode: number | null }>): Promise<SideResult> {
  let started = performance.now();
  const install = await run('npm install');
  const installMs = performance.now() - started;
  if (install.exitCode !== 0) return { passed: false, stage: 'install', counts: null, installMs, testMs: 0, output: install.output };
  started = performance.now();
  const test = await run('npm test');
  const testMs = performance.now() - started;
  return { passed: test.exitCode === 0, stage: 'test', counts: parseTestCounts(test.output), installMs, testMs, output: test.output };
}

function shell(command: string, cwd: string, timeoutMs: number): Promise<{ output: string; exitCode: number | null }> {
  return new Promise((resolve) => {
    // No TTY and no colour on either side, so the two print the same summaries.
    const child = spawn('bash', ['-c', command], { cwd, env: { ...process.env, CI: '1', NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('close', (code) => resolve({ output, exitCode: code }));
  });
}

function sameCounts(a: TestCounts | null, b: TestCounts | null): boolean {
  return a === b || (a !== null && b !== null && a.pass === b.pass && a.fail === b.fail);
}

function reason(embedded: SideResult, node: SideResult): string {
  if (/`child_process` is not available/.test(embedded.output)) return 'child_process not available';
  if (!node.passed) return `fails on Node too (${node.stage}): ${firstError(node.output)}`;
  if (embedded.stage === 'install') return `install failed: ${firstError(embedded.output)}`;
  if (embedded.passed) return `counts differ: ${countsText(embedded.counts)} against Node's ${countsText(node.counts)}`;
  return firstError(embedded.output);
}

/** The first line that looks like the failure: an error, a failed TAP assertion, or else the last line. */
export function firstError(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter(Boolean);
  const hit = lines.find((line) => /^not ok\b|Error\b|error\b|is not|cannot|Cannot|failing$/.test(line));
  return (hit ?? lines.at(-1) ?? '(no output)').slice(0, 200);
}
