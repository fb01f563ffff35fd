// Subagents (issue 24), in Node on the in-process embedded runtime holding bench/lib/big-repo.ts's 20,000-file,
// ~48 MB workspace. Each section prints its figures under its own heading; more sections are appended below.
//   1. Fork: Workspace.fork on that workspace, the median of several (target ≤ 5 ms), with what it allocated: the
//      bytes held in ArrayBuffers (file contents) and on the heap after a collection, per fork, with 20 forks open.
//   2. Merge: a worker that changed 10 files (the live tree changed 5 of them elsewhere meanwhile): the fork's
//      changes(), then the plan and its application in one exclusive turn (target ≤ 50 ms for plan + apply).
//   3. Four explore tasks in one message, each request answered after 500 ms by a scripted provider: the wall time
//      from the first task's start to the last one's end, against one task alone (target ≤ 1.3×).
//   4. The same scripted exploration (eight files of the workspace read, one conclusion) done by the parent itself
//      and through four explore tasks: the parent's context at its last request, in tokens.
// Prints figures; asserts nothing.
import './lib/runes';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEmbeddedRuntime } from '../src/runtime/embedded';
import { Workspace, type WorkspaceFork } from '../src/runtime/workspace/workspace';
import { mergeIntoWorkspace } from '../src/app/subagents/merge/merge-plan';
import { generateBigRepo } from './lib/big-repo';
import { createScriptedStreamFn, toolCall, type ScriptedTurn } from '../src/ai/providers/scripted';
import { testModel } from '../src/ai/testing/test-model';
import type { StreamRequest } from '../src/ai/types';
import { estimateRequestTokens } from '../src/agent/compaction/estimate';
import { SessionController } from '../src/app/session/controller.svelte';
import { defaultSettings } from '../src/app/settings/settings';
import { createCodingTools } from '../src/tools/index';

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
  const firstLine = (text: string) => text.slice(0, text.indexOf('\n'));
  const listing: number[] = [];
  const merging: number[] = [];
  let conflicts = 0;
  let written = 0;
  for (let round = 0; round < 7; round++) {
    const chosen = paths.filter((_, i) => i % 1999 === round).slice(0, 10);
    const fork = await workspace.fork();
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
    merging.push(performance.now() - planned);
    listing.push(planned - listed);
    conflicts += plan.conflicts.length;
    written += plan.changes.writeFiles.length;
    await fork.dispose();
  }
  console.log(`plan + apply: the first ${ms(merging[0])} (cold: the merge code's first run), then median ${ms(median(merging.slice(1)))}, slowest ${ms(Math.max(...merging.slice(1)))}; changes(): median ${ms(median(listing))} (10 files each)`);
  console.log(`${merging.length} merges, each 10 files of which 5 also changed in the live tree elsewhere: ${written} files written, ${conflicts} conflicts`);
}

const PROVIDER_DELAY_MS = 500;
const model = testModel({ provider: 'anthropic' });
const firstText = (request: StreamRequest) => {
  const first = request.messages[0];
  return first && typeof first.content === 'string' ? first.content : '';
};
const later = (turn: ScriptedTurn | string) => new Promise<ScriptedTurn | string>((resolve) => setTimeout(() => resolve(turn), PROVIDER_DELAY_MS));
const taskCall = (i: number, files: string[]) =>
  toolCall('task', { description: `look ${i}`, prompt: `EXPLORE ${i}: ${files.join(' ')}`, agent: 'explore' }, `task_${i}`);

/**
 * A session whose parent asks for `tasks` explore tasks (each reading its files, then concluding) or, with none,
 * reads every file itself; every request is answered after PROVIDER_DELAY_MS. Returns the session when it is done.
 */
async function scriptedSession(workspace: Workspace, groups: string[][], throughTasks: boolean): Promise<{ controller: SessionController; parentRequests: StreamRequest[]; subagentRequests: StreamRequest[] }> {
  const settings = { ...defaultSettings(), apiKey: 'k' };
  const parentRequests: StreamRequest[] = [];
  const subagentRequests: StreamRequest[] = [];
  const streamFn = createScriptedStreamFn((request) => {
    const prompt = firstText(request);
    const last = request.messages[request.messages.length - 1];
    if (prompt === 'explore the code') {
      parentRequests.push(request);
      if (last.role === 'toolResult') return later('Here is what the code does.');
      const calls = throughTasks ? groups.map((files, i) => taskCall(i, files)) : groups.flat().map((path, i) => toolCall('read', { path }, `read_${i}`));
      return later({ content: calls });
    }
    subagentRequests.push(request);
    const files = prompt.slice(prompt.indexOf(':') + 2).split(' ');
    if (last.role === 'toolResult') return later(`Conclusion for ${files.join(', ')}: they define a module each.`);
    return later({ content: files.map((path, i) => toolCall('read', { path }, `r_${i}`)) });
  });
  const controller = new SessionController({ workspace, tools: createCodingTools(workspace), getSettings: () => settings, resolveModel: () => model, streamFn, scheduleUpdate: (fn) => queueMicrotask(fn) });
  controller.send('explore the code');
  await controller.idle();
  return { controller, parentRequests, subagentRequests };
}

function tasksWallTime(controller: SessionController): number {
  const entries = controller.tasks.entries;
  return Math.max(...entries.map((e) => e.endedAt ?? 0)) - Math.min(...entries.map((e) => e.startedAt ?? e.queuedAt));
}

async function parallelExploreSection(workspace: Workspace, paths: string[]): Promise<void> {
  console.log(`\n### Four explore tasks in one message, each request answered after ${PROVIDER_DELAY_MS} ms (target ≤ 1.3× the longest single task)`);
  const groups = [0, 1, 2, 3].map((i) => paths.slice(i * 2, i * 2 + 2));
  const single = await scriptedSession(workspace, groups.slice(0, 1), true);
  const alone = tasksWallTime(single.controller);
  single.controller.dispose();
  const four = await scriptedSession(workspace, groups, true);
  const together = tasksWallTime(four.controller);
  const longest = Math.max(...four.controller.tasks.entries.map((e) => (e.endedAt ?? 0) - (e.startedAt ?? e.queuedAt)));
  console.log(`one task alone: ${ms(alone)}; four at once: ${ms(together)} from the first start to the last end (the longest of the four ${ms(longest)}): ${(together / alone).toFixed(2)}× one task alone`);
  console.log(`statuses: ${four.controller.tasks.entries.map((e) => e.status).join(', ')}`);
  four.controller.dispose();
}

async function contextSection(workspace: Workspace, paths: string[]): Promise<void> {
  console.log('\n### The parent\'s context after the same exploration (eight files read, one conclusion)');
  const groups = [0, 1, 2, 3].map((i) => paths.slice(100 + i * 2, 100 + i * 2 + 2));
  for (const throughTasks of [false, true]) {
    const { controller, parentRequests, subagentRequests } = await scriptedSession(workspace, groups, throughTasks);
    const last = parentRequests[parentRequests.length - 1];
    // Each subagent's last request holds its whole context: the reads stayed there.
    const lastOfEach = new Map(subagentRequests.map((r) => [firstText(r), r]));
    const subagentTokens = [...lastOfEach.values()].reduce((n, r) => n + estimateRequestTokens(r), 0);
    console.log(`${throughTasks ? 'through four explore tasks' : 'the parent reads them itself'}: the parent's last request is ${estimateRequestTokens(last)} tokens (${last.messages.length} messages)${throughTasks ? `; the four subagents' contexts held ${subagentTokens} tokens between them, none of it sent to the parent` : ''}`);
    controller.dispose();
  }
}

const { workspace, paths } = await bigWorkspace();
await forkSection(workspace, paths);
await mergeSection(workspace, paths);
await parallelExploreSection(workspace, paths);
await contextSection(workspace, paths);
