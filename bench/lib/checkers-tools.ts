// The checkers bench's tools and project, shared by its two runs (bench/checkers.bench.ts in the runtime's Node
// stand-in, bench/browser-checkers.bench.ts in the built app in Chromium): the 50-file project with the tools'
// versions, real Node's side (installed by real npm into a temporary folder, each tool timed), and whether two runs
// agree on the findings.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkersProject } from './checkers-project';

export const VERSIONS = { typescript: '5.9.3', prettier: '3.10.1', eslint: '9.39.5', '@eslint/js': '9.39.5', 'typescript-eslint': '8.74.0' };
export const CACHE_DIR = join(process.cwd(), 'node_modules/.cache/conch-checkers');
export const TOOL_TIMEOUT_MS = 30 * 60_000;
export const NODE_RUNS = 3;

export type Tool = { name: string; command: string; bin: string; args: string[]; findings(output: string): string[] };

export const TOOLS: Tool[] = [
  { name: 'tsc', command: 'npx tsc --noEmit', bin: 'tsc', args: ['--noEmit'], findings: (out) => out.split('\n').filter((line) => /error TS\d+/.test(line)) },
  {
    name: 'prettier',
    command: 'npx prettier --check .',
    bin: 'prettier',
    args: ['--check', '.'],
    findings: (out) => out.split('\n').filter((line) => line.startsWith('[warn] ') && !line.includes('Code style issues')),
  },
  {
    name: 'eslint',
    command: 'npx eslint .',
    bin: 'eslint',
    args: ['.'],
    findings: (out) => out.split('\n').filter((line) => /^\s+\d+:\d+\s+(error|warning)/.test(line) || line.startsWith('<project>/')),
  },
];

/** A run's exit code and output, the project's folder in it written as <project> (it differs between the two sides). */
export type Run = { ms: number; exitCode: number | null; output: string };

export function projectFiles(): Record<string, string> {
  const files = checkersProject();
  const manifest = JSON.parse(files['package.json']) as Record<string, unknown>;
  files['package.json'] = `${JSON.stringify({ ...manifest, devDependencies: VERSIONS }, null, 2)}\n`;
  return files;
}

export function realNodeProject(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'conch-checkers-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `--cache=${join(CACHE_DIR, 'real-npm')}`], { cwd: dir, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`real npm install failed:\n${install.stdout}${install.stderr}`);
  return dir;
}

/** Real Node's run of `tool`: the median time of NODE_RUNS (the machine is shared, one run can be unlucky). */
export function runReal(dir: string, tool: Tool): Run {
  const runs: Run[] = [];
  for (let i = 0; i < NODE_RUNS; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [join(dir, 'node_modules/.bin', tool.bin), ...tool.args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    runs.push({ ms: performance.now() - started, exitCode: run.status, output: `${run.stdout}${run.stderr}`.split(dir).join('<project>') });
  }
  return runs.sort((a, b) => a.ms - b.ms)[Math.floor(NODE_RUNS / 2)];
}

/** Same exit code and the same findings, in the same order. */
export function agreement(tool: Tool, embedded: Run, real: Run): string {
  const ours = tool.findings(embedded.output);
  const theirs = tool.findings(real.output);
  const same = embedded.exitCode === real.exitCode && ours.length === theirs.length && ours.every((line, i) => line === theirs[i]);
  if (same) return `agree (exit ${real.exitCode}, ${theirs.length} findings)`;
  return `DIFFER: embedded exit ${embedded.exitCode} with ${ours.length} findings, Node exit ${real.exitCode} with ${theirs.length}`;
}

