import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../in-process';
import { describeRuntimeContract } from '../../testing/runtime-contract';
import type { ForkChange } from '../../types';

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));
const summary = (changes: ForkChange[]) => changes.map((c) => ({ path: c.path, base: text(c.base), fork: text(c.fork) }));

describe('EmbeddedRuntime.fork', () => {
  it("keeps a fork's writes from the live workspace and from other forks", async () => {
    const live = createEmbeddedRuntime({ files: { 'a.txt': 'a', 'src/b.txt': 'b' } });
    const one = await live.fork();
    const two = await live.fork();
    await one.runtime.writeFile('a.txt', 'one');
    await one.runtime.writeFile('src/new.txt', 'new');
    await one.runtime.rm('src/b.txt');
    expect(text(await live.readFile('a.txt'))).toBe('a');
    expect(await live.stat('src/new.txt')).toBeNull();
    expect(text(await live.readFile('src/b.txt'))).toBe('b');
    expect(text(await two.runtime.readFile('a.txt'))).toBe('a');
    expect(await two.runtime.stat('src/new.txt')).toBeNull();
    expect((await two.runtime.readdir('src')).map((e) => e.name)).toEqual(['b.txt']);
    expect((await one.runtime.readdir('src')).map((e) => e.name)).toEqual(['new.txt']);
  });

  it("keeps the live workspace's later changes from the fork", async () => {
    const live = createEmbeddedRuntime({ files: { 'a.txt': 'a', 'gone.txt': 'g' } });
    const fork = await live.fork();
    await live.writeFile('a.txt', 'live');
    await live.writeFile('later.txt', 'later');
    await live.rm('gone.txt');
    await live.exec('mkdir -p made && echo x > made/x.txt && chmod 755 a.txt');
    expect(text(await fork.runtime.readFile('a.txt'))).toBe('a');
    expect(text(await fork.runtime.readFile('gone.txt'))).toBe('g');
    expect(await fork.runtime.stat('later.txt')).toBeNull();
    expect(await fork.runtime.stat('made')).toBeNull();
    expect((await fork.runtime.readdir('.')).map((e) => e.name)).toEqual(['a.txt', 'gone.txt']);
    expect((await fork.runtime.exec('stat -c %a a.txt')).output.trim()).toBe('644');
    expect(await fork.changes()).toEqual([]);
  });

  it("runs commands on the fork's files only, git included", async () => {
    const live = createEmbeddedRuntime({ files: { 'a.txt': 'a\n' } });
    await live.exec('git init -q && git add -A && git commit -qm base');
    const fork = await live.fork();
    const run = await fork.runtime.exec('echo x > f && echo more >> a.txt && chmod 700 a.txt && git status --porcelain');
    expect(run.exitCode).toBe(0);
    expect(run.output).toContain('M a.txt');
    expect(run.output).toContain('?? f');
    expect(await live.stat('f')).toBeNull();
    expect(text(await live.readFile('a.txt'))).toBe('a\n');
    expect((await live.exec('stat -c %a a.txt')).output.trim()).toBe('644');
    expect((await live.exec('git status --porcelain')).output).toBe('');
    expect(summary((await fork.changes()).filter((c) => !c.path.startsWith('.git/')))).toEqual([
      { path: 'a.txt', base: 'a\n', fork: 'a\nmore\n' },
      { path: 'f', base: null, fork: 'x\n' },
    ]);
  });

  it("starts its shell in the parent's directory with the given environment", async () => {
    const live = createEmbeddedRuntime({ files: { 'src/a.txt': 'a' } });
    await live.exec('cd src');
    const fork = await live.fork({ env: { GREETING: 'hi' } });
    expect((await fork.runtime.exec('pwd; echo $GREETING')).output).toBe('/home/project/src\nhi\n');
    const elsewhere = await live.fork({ cwd: '.' });
    expect((await elsewhere.runtime.exec('pwd')).output).toBe('/home/project\n');
  });

  it('lists created, changed, removed and renamed files, folders only as implied, links as their target', async () => {
    const live = createEmbeddedRuntime({ files: { 'keep.txt': 'k', 'edit.txt': 'old', 'del.txt': 'd', 'dir/x.txt': 'x', 'same.txt': 's' } });
    const fork = await live.fork();
    const rt = fork.runtime;
    await rt.writeFile('edit.txt', 'new');
    await rt.writeFile('added/deep/n.txt', 'n');
    await rt.rm('del.txt');
    await rt.rename('dir', 'moved');
    await rt.writeFile('same.txt', 's'); // rewritten with the same bytes: no change
    await rt.mkdir('empty');
    await rt.exec('ln -s keep.txt link');
    expect(summary(await fork.changes())).toEqual([
      { path: 'added/deep/n.txt', base: null, fork: 'n' },
      { path: 'del.txt', base: 'd', fork: null },
      { path: 'dir/x.txt', base: 'x', fork: null },
      { path: 'edit.txt', base: 'old', fork: 'new' },
      { path: 'link', base: null, fork: 'keep.txt' },
      { path: 'moved/x.txt', base: null, fork: 'x' },
    ]);
  });

  it('has a search, scan and watch of its own', async () => {
    const live = createEmbeddedRuntime({ files: { 'a.txt': 'needle\n' } });
    const fork = await live.fork();
    const heard: string[][] = [];
    const liveHeard: string[][] = [];
    fork.runtime.watch((paths) => heard.push(paths));
    live.watch((paths) => liveHeard.push(paths));
    await fork.runtime.writeFile('b.txt', 'needle too\n');
    expect(heard.flat()).toContain('b.txt');
    expect(liveHeard).toEqual([]);
    const found = await fork.runtime.search({ kind: 'content', path: '.', pattern: { source: 'needle', flags: '' }, limit: 10, context: 0, maxLineChars: 200 });
    expect(found.kind === 'content' && found.files.map((file) => file.path)).toEqual(['/home/project/a.txt', '/home/project/b.txt']);
    const liveFound = await live.search({ kind: 'content', path: '.', pattern: { source: 'needle', flags: '' }, limit: 10, context: 0, maxLineChars: 200 });
    expect(liveFound.kind === 'content' && liveFound.files.map((file) => file.path)).toEqual(['/home/project/a.txt']);
    expect((await fork.runtime.scan(['']).then((entries) => entries.map((e) => e.path)))).toContain('b.txt');
    expect((await live.scan(['']).then((entries) => entries.map((e) => e.path)))).not.toContain('b.txt');
  });

  it('stops keeping entries once disposed, and a disposed fork refuses work', async () => {
    const live = createEmbeddedRuntime({ files: { 'a.txt': 'a' } });
    const fork = await live.fork();
    await fork.dispose();
    await live.writeFile('a.txt', 'after');
    await expect(fork.runtime.readFile('a.txt')).rejects.toThrow(/disposed/);
    const points = (live as unknown as { memory: { data: { points: Set<unknown> } } }).memory.data.points;
    expect(points.size).toBe(0);
  });

  it('cannot be forked again', async () => {
    const fork = await createEmbeddedRuntime().fork();
    await expect(fork.runtime.fork()).rejects.toThrow(/cannot be forked again/);
  });
});

describeRuntimeContract('embedded fork', async () => (await createEmbeddedRuntime().fork()).runtime, { changesBeforeResult: true });
