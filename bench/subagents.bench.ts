// Subagents (issue 24), in Node on the in-process embedded runtime holding bench/lib/big-repo.ts's 20,000-file,
// ~48 MB workspace. Each section prints its figures under its own heading; more sections are appended below.
//   1. Fork: Workspace.fork on that workspace, the median of several (target ≤ 5 ms), with what it allocated: the
//      bytes held in ArrayBuffers (file contents) and on the heap after a collection, per fork, with 20 forks open.
//   2. Merge: a worker that changed 10 files (the live tree changed 5 of them elsewhere meanwhile): the fork's
//      changes(), then the plan and its application in one exclusive turn (target ≤ 50 ms for plan + apply).
// Prints figures; asserts nothing.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { Workspace, type WorkspaceFork } from '../src/runtime/workspace/workspace';
import { mergeIntoWorkspace } from '../src/app/subagents/merge/merge-plan';
import { generateBigRepo } from './lib/big-repo';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function bigWorkspace(): Promise<{ workspace: Workspace; paths: string[] }> {
  const repo = generateBigRepo();
  const runtime = createEmbeddedRuntime();
  await runtime.importFiles(repo.files);
  const paths = repo.files.filter((f) => f.path.endsWith('.ts') && !f.path.includes('node_modules/')).map((f) => f.path);
  console.log(`workspace: ${repo.files.length} files, ${(repo.files.reduce((n, f) => n + f.data.byteLength, 0) / 1024 ** 2).toFixed(1)} MB`);
  return { workspace: Workspace.of(runtime), paths };
}

function held(): { buffers: number; heap: number } {
  collect();
  const usage = process.memoryUsage();
  return { buffers: usage.arrayBuffers, heap: usage.heapUsed };
}

async function forkSection(workspace: Workspace, paths: string[]): Promise<void> {
  console.log('\n### Fork of the 20,000-file workspace (target ≤ 5 ms, no bytes copied)');
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const start = performance.now();
    const fork = await workspace.fork();
    times.push(performance.now() - start);
    await fork.dispose();
  }
  console.log(`fork: median ${ms(median(times))}, fastest ${ms(Math.min(...times))}, slowest ${ms(Math.max(...times))} (${times.length} forks; the first ${ms(times[0])})`);
  const before = held();
  const open: WorkspaceFork[] = [];
  for (let i = 0; i < 20; i++) open.push(await workspace.fork());
  const after = held();
  const [live, forked] = await Promise.all([workspace.readFile(paths[0]), open[0].workspace.readFile(paths[0])]);
  console.log(`20 forks open: ${kb((after.buffers - before.buffers) / 20)} of ArrayBuffers (file bytes) and ${kb((after.heap - before.heap) / 20)} of heap per fork`);
  console.log(`(a fork reads the live files in place: ${paths[0]} through a fork is ${live === forked ? 'the very buffer' : 'a copy of the buffer'} the live runtime holds; the workspace's files take ${kb(before.buffers)} of ArrayBuffers)`);
  for (const fork of open) await fork.dispose();
}

async function mergeSection(workspace: Workspace, paths: string[]): Promise<void> {
  console.log('\n### Merge of a worker that changed 10 files (target ≤ 50 ms)');
  const chosen = paths.filter((_, i) => i % 1999 === 0).slice(0, 10);
  const fork = await workspace.fork();
  const firstLine = (text: string) => text.slice(0, text.indexOf('\n'));
  for (const path of chosen) {
    const text = new TextDecoder().decode(await fork.workspace.readFile(path));
    await fork.workspace.writeFile(path, text.replace(firstLine(text), `${firstLine(text)} // worker`));
  }
  for (const path of chosen.slice(0, 5)) {
    const text = new TextDecoder().decode(await workspace.readFile(path));
    await workspace.writeFile(path, `${text}// live, at the end\n`);
  }
  const listed = performance.now();
  const changes = await fork.changes();
  const planned = performance.now();
  const plan = await mergeIntoWorkspace(workspace, changes);
  const applied = performance.now();
  await fork.dispose();
  console.log(`changes(): ${ms(planned - listed)} (${changes.length} files); plan + apply: ${ms(applied - planned)}; conflicts: ${plan.conflicts.length}; files written: ${plan.changes.writeFiles.length}`);
}

const { workspace, paths } = await bigWorkspace();
await forkSection(workspace, paths);
await mergeSection(workspace, paths);
