import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../../runtime/embedded';
import { Workspace } from '../../../runtime/workspace/workspace';
import type { ForkChange } from '../../../runtime/types';
import { applyMergePlan, applyPendingToWorkspace, liveReader, mergeIntoWorkspace, planApply, planMerge } from './merge-plan';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const change = (path: string, base: string | null, fork: string | null): ForkChange => ({ path, base: base === null ? null : bytes(base), fork: fork === null ? null : bytes(fork) });
const lines = (...items: string[]) => items.map((item) => `${item}\n`).join('');

function workspaceWith(files: Record<string, string | Uint8Array>): Workspace {
  return Workspace.of(createEmbeddedRuntime({ files }));
}

describe('planMerge', () => {
  it('merges non-overlapping changes of both sides and applies creations and deletions', async () => {
    const base = lines('one', 'two', 'three', 'four', 'five');
    const workspace = workspaceWith({ 'a.txt': lines('one', 'two', 'three', 'four', 'FIVE (live)'), 'gone.txt': 'bye', 'dir/only.txt': 'x' });
    const plan = await planMerge(
      [change('a.txt', base, lines('ONE (worker)', 'two', 'three', 'four', 'five')), change('new.txt', null, 'new'), change('gone.txt', 'bye', null), change('dir/only.txt', 'x', null)],
      liveReader(workspace),
    );
    expect(plan.conflicts).toEqual([]);
    expect(plan.filesChanged).toEqual(['a.txt', 'dir/only.txt', 'gone.txt', 'new.txt']);
    await applyMergePlan(workspace, plan);
    expect(text(await workspace.readFile('a.txt'))).toBe(lines('ONE (worker)', 'two', 'three', 'four', 'FIVE (live)'));
    expect(text(await workspace.readFile('new.txt'))).toBe('new');
    expect(await workspace.stat('gone.txt')).toBeNull();
    expect(await workspace.stat('dir')).toBeNull(); // the folder the worker emptied goes with its last file
  });

  it("leaves the worker's own git repository out: its objects are no change to the workspace", async () => {
    const workspace = workspaceWith({ 'a.txt': 'a' });
    const plan = await planMerge([change('.git/HEAD', null, 'ref: refs/heads/main\n'), change('.git/objects/ab/cd', null, 'x'), change('a.txt', 'a', 'b')], liveReader(workspace));
    expect(plan.filesChanged).toEqual(['a.txt']);
    await applyMergePlan(workspace, plan);
    expect(await workspace.stat('.git')).toBeNull();
  });

  it('takes identical changes on both sides as no conflict', async () => {
    const workspace = workspaceWith({ 'a.txt': lines('same edit', 'b'), 'both-new.txt': 'n' });
    const plan = await planMerge([change('a.txt', lines('a', 'b'), lines('same edit', 'b')), change('both-new.txt', null, 'n')], liveReader(workspace));
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.writeFiles).toEqual([]);
  });

  it('reports conflicting hunks with their 1-based base line and applies nothing at all', async () => {
    const workspace = workspaceWith({ 'a.txt': lines('a', 'b LIVE', 'c'), 'clean.txt': 'old' });
    const plan = await planMerge([change('a.txt', lines('a', 'b', 'c'), lines('a', 'b WORKER', 'c')), change('clean.txt', 'old', 'new')], liveReader(workspace));
    expect(plan.conflicts).toEqual([{ path: 'a.txt', hunks: [{ baseStart: 2, base: 'b\n', live: 'b LIVE\n', worker: 'b WORKER\n' }] }]);
    expect(plan.changes).toEqual({ removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] });
    await expect(applyMergePlan(workspace, plan)).rejects.toThrow(/conflicts in a\.txt/);
    const merged = await mergeIntoWorkspace(workspace, [change('a.txt', lines('a', 'b', 'c'), lines('a', 'b WORKER', 'c')), change('clean.txt', 'old', 'new')]);
    expect(merged.conflicts).toHaveLength(1);
    expect(text(await workspace.readFile('clean.txt'))).toBe('old');
    expect(text(await workspace.readFile('a.txt'))).toBe(lines('a', 'b LIVE', 'c'));
    expect(merged.pending).toEqual([
      { path: 'a.txt', base: lines('a', 'b', 'c'), worker: lines('a', 'b WORKER', 'c') },
      { path: 'clean.txt', base: 'old', worker: 'new' },
    ]);
  });

  it('conflicts on add/add with different content, on delete/modify, and on binary files changed on both sides', async () => {
    const binary = (...values: number[]) => new Uint8Array([0xff, 0xfe, ...values]);
    const workspace = workspaceWith({ 'added.txt': 'live add', 'edited.txt': 'live edit', 'img.bin': binary(2), 'one-sided.bin': binary(0) });
    const plan = await planMerge(
      [
        change('added.txt', null, 'worker add'),
        change('edited.txt', 'base', null),
        { path: 'img.bin', base: binary(0), fork: binary(1) },
        { path: 'one-sided.bin', base: binary(0), fork: binary(9) },
      ],
      liveReader(workspace),
    );
    expect(plan.conflicts.map((c) => c.path)).toEqual(['added.txt', 'edited.txt', 'img.bin']);
    expect(plan.conflicts[0].hunks).toEqual([{ baseStart: 1, base: '', live: 'live add', worker: 'worker add' }]);
    expect(plan.conflicts[1].hunks).toEqual([{ baseStart: 1, base: 'base', live: 'live edit', worker: '' }]);
    expect(plan.pending.find((p) => p.path === 'img.bin')).toMatchObject({ encoding: 'base64', worker: btoa('\xff\xfe\x01') });
  });
});

describe('planApply', () => {
  const base = lines('a', 'b', 'c', 'd');
  const pending = [
    { path: 'a.txt', base, worker: lines('a', 'b WORKER', 'c', 'd WORKER') },
    { path: 'new.txt', base: null, worker: 'worker only' },
  ];

  it("re-merges against the live tree now, conflicting hunks taking the worker's side", async () => {
    const workspace = workspaceWith({ 'a.txt': lines('a', 'b LIVE', 'c', 'd') });
    const plan = await planApply(pending, liveReader(workspace), 'worker');
    expect(plan.conflicts).toEqual([]);
    await applyMergePlan(workspace, plan);
    expect(text(await workspace.readFile('a.txt'))).toBe(lines('a', 'b WORKER', 'c', 'd WORKER'));
    expect(text(await workspace.readFile('new.txt'))).toBe('worker only');
  });

  it("keeps the live side of conflicting hunks and still applies the worker's clean ones", async () => {
    const workspace = workspaceWith({ 'a.txt': lines('a', 'b LIVE', 'c', 'd') });
    const plan = await applyPendingToWorkspace(workspace, pending, 'live');
    expect(plan.conflicts).toEqual([]);
    expect(text(await workspace.readFile('a.txt'))).toBe(lines('a', 'b LIVE', 'c', 'd WORKER'));
    expect(text(await workspace.readFile('new.txt'))).toBe('worker only');
  });

  it('decodes base64 pending files', async () => {
    const workspace = workspaceWith({ 'img.bin': new Uint8Array([1]) });
    const plan = await planApply([{ path: 'img.bin', base: btoa('\x00'), worker: btoa('\xff\x02'), encoding: 'base64' }], liveReader(workspace), 'worker');
    await applyMergePlan(workspace, plan);
    expect([...(await workspace.readFile('img.bin'))]).toEqual([0xff, 2]);
  });
});

describe('a worker fork merged back', () => {
  it("is invisible to the live workspace until the merge, which brings in only the worker's changes", async () => {
    const workspace = workspaceWith({ 'a.txt': lines('1', '2', '3'), 'b.txt': 'b' });
    expect(workspace.canFork).toBe(true);
    const fork = await workspace.fork();
    await fork.workspace.exec("sed -i 's/1/one/' a.txt && echo c > c.txt");
    await workspace.writeFile('b.txt', 'live b');
    expect(await workspace.stat('c.txt')).toBeNull();
    const plan = await mergeIntoWorkspace(workspace, await fork.changes());
    await fork.dispose();
    expect(plan.filesChanged).toEqual(['a.txt', 'c.txt']);
    expect(text(await workspace.readFile('a.txt'))).toBe(lines('one', '2', '3'));
    expect(text(await workspace.readFile('c.txt'))).toBe('c\n');
    expect(text(await workspace.readFile('b.txt'))).toBe('live b');
  });

  it('is refused by a workspace whose runtime cannot fork', async () => {
    const runtime = createEmbeddedRuntime();
    const noFork = Workspace.of({ ...bind(runtime), fork: undefined });
    expect(noFork.canFork).toBe(false);
    await expect(noFork.fork()).rejects.toThrow(/cannot fork/);
  });
});

function bind<T extends object>(target: T): T {
  const bound: Record<string, unknown> = { kind: (target as { kind: unknown }).kind, workdir: (target as { workdir: unknown }).workdir };
  let proto: object | null = Object.getPrototypeOf(target);
  while (proto && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      const value = (target as Record<string, unknown>)[key];
      if (key !== 'constructor' && typeof value === 'function' && !(key in bound)) bound[key] = (value as (...args: unknown[]) => unknown).bind(target);
    }
    proto = Object.getPrototypeOf(proto);
  }
  return bound as T;
}
