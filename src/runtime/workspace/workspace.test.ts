import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, DEFAULT_WORKDIR } from '../embedded';
import { describeRuntimeContract } from '../testing/runtime-contract';
import { Workspace } from './workspace';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const expected = { kind: 'embedded' as const, workdir: DEFAULT_WORKDIR };

/** Resolves once `listener` has been called with a batch containing `path`. */
function changeOf(workspace: Workspace, path: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = workspace.watch((paths) => {
      if (!paths.includes(path)) return;
      stop();
      resolve();
    });
  });
}

describeRuntimeContract('workspace (runtime attached at once)', () => {
  const workspace = new Workspace(expected);
  workspace.attach(createEmbeddedRuntime());
  return workspace;
});

describeRuntimeContract('workspace (runtime attached a moment later)', () => {
  const workspace = new Workspace(expected);
  setTimeout(() => workspace.attach(createEmbeddedRuntime()), 5);
  return workspace;
});

describe('Workspace before a runtime is attached', () => {
  it('holds calls made before the hand-over and runs them, in order, on the real runtime', async () => {
    const workspace = new Workspace(expected);
    const order: string[] = [];
    const write = workspace.writeFile('early.txt', 'first').then(() => order.push('write'));
    const exec = workspace.exec('cat early.txt').then((r) => {
      order.push('exec');
      return r.output;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]); // nothing ran yet
    const real = createEmbeddedRuntime();
    workspace.attach(real);
    await write;
    expect(await exec).toBe('first');
    expect(order).toEqual(['write', 'exec']);
    expect(text(await real.readFile('early.txt'))).toBe('first');
  });

  it('fails waiting and later calls with the reason no runtime could start, until one is attached', async () => {
    const workspace = new Workspace(expected);
    const early = workspace.readdir('.');
    workspace.fail(new Error('The sandbox could not start: no workers.'));
    await expect(early).rejects.toThrow(/could not start: no workers/);
    await expect(workspace.readFile('a.txt')).rejects.toThrow(/could not start/);
    // A later start (trying WebContainer again) makes the workspace usable.
    workspace.attach(createEmbeddedRuntime({ files: { 'a.txt': 'back' } }));
    expect(text(await workspace.readFile('a.txt'))).toBe('back');
  });

  it('reports the expected kind and workdir until the hand-over, then the real ones', () => {
    const workspace = new Workspace(expected);
    expect(workspace.workdir).toBe(DEFAULT_WORKDIR);
    expect(workspace.current).toBeNull();
    const real = createEmbeddedRuntime({ workdir: '/srv/other' });
    workspace.attach(real);
    expect(workspace.workdir).toBe('/srv/other');
    expect(workspace.current).toBe(real);
    expect(workspace.resolve('src/a.ts')).toBe('/srv/other/src/a.ts');
  });

  it('attaches watchers registered early, and lets them go', async () => {
    const workspace = new Workspace(expected);
    const seen: string[] = [];
    const stop = workspace.watch((paths) => seen.push(...paths));
    const real = createEmbeddedRuntime();
    workspace.attach(real);
    const watched = changeOf(workspace, 'watched.txt');
    await real.writeFile('watched.txt', 'x');
    await watched;
    expect(seen).toContain('watched.txt');
    stop();
    seen.length = 0;
    const later = changeOf(workspace, 'unwatched.txt'); // a second watcher shows the batch was delivered
    await real.writeFile('unwatched.txt', 'x');
    await later;
    expect(seen).toEqual([]);
  });

  it('imports files through a zip when the real runtime cannot take them directly', async () => {
    const workspace = new Workspace(expected);
    const real = createEmbeddedRuntime();
    workspace.attach({ ...real, kind: real.kind, workdir: real.workdir, importFiles: undefined, watch: real.watch.bind(real), importZip: real.importZip.bind(real), realpath: real.realpath.bind(real) });
    await workspace.importFiles([{ path: 'z/a.txt', data: new TextEncoder().encode('via zip') }]);
    expect(text(await real.readFile('z/a.txt'))).toBe('via zip');
  });
});

describe('Workspace across a runtime swap', () => {
  it('keeps one identity: the same watchers hear the new runtime, and the old one no longer', async () => {
    const workspace = new Workspace(expected);
    const first = createEmbeddedRuntime();
    workspace.attach(first);
    const heard: string[] = [];
    workspace.watch((paths) => heard.push(...paths));
    const second = createEmbeddedRuntime();
    workspace.attach(second);
    const fromSecond = changeOf(workspace, 'second.txt');
    await first.writeFile('first.txt', 'old runtime');
    await second.writeFile('second.txt', 'new runtime');
    await fromSecond;
    expect(heard).toContain('second.txt');
    expect(heard).not.toContain('first.txt');
    expect(text(await workspace.readFile('second.txt'))).toBe('new runtime');
  });

  it('is the workspace every holder of its runtime reaches', () => {
    const runtime = createEmbeddedRuntime();
    const workspace = new Workspace(expected);
    workspace.attach(runtime);
    expect(Workspace.of(runtime)).toBe(workspace);
    expect(Workspace.of(workspace)).toBe(workspace);
    const other = createEmbeddedRuntime();
    expect(Workspace.of(other)).toBe(Workspace.of(other));
    expect(Workspace.of(other)).not.toBe(workspace);
    // After a swap, the replaced runtime no longer leads to this workspace.
    workspace.attach(other);
    expect(Workspace.of(other)).toBe(workspace);
    expect(Workspace.of(runtime)).not.toBe(workspace);
  });
});

describe('Workspace mutations', () => {
  it('serializes read-modify-writes of one file, through a symlink too, while other files proceed', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'log.txt': 'start' } });
    await runtime.exec('ln -s log.txt link.txt');
    const workspace = Workspace.of(runtime);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const append = (path: string, suffix: string, wait?: Promise<void>) =>
      workspace.mutate(path, async (target, rt) => {
        const before = text(await rt.readFile(target));
        await wait;
        await rt.writeFile(target, before + suffix);
        order.push(suffix);
      });
    const one = append('log.txt', '+one', held);
    const two = append('link.txt', '+two');
    const other = workspace.mutate('other.txt', async (target, rt) => {
      await rt.writeFile(target, 'other');
      order.push('other');
    });
    await other;
    expect(order).toEqual(['other']);
    release();
    await Promise.all([one, two]);
    expect(text(await workspace.readFile('log.txt'))).toBe('start+one+two');
    expect((await workspace.stat('link.txt'))?.type).toBe('file');
    expect((await runtime.exec('readlink link.txt')).output.trim()).toBe('log.txt');
  });

  it('makes every call wait while an exclusive job replaces the files', async () => {
    const workspace = Workspace.of(createEmbeddedRuntime({ files: { 'a.txt': 'before' } }));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const restore = workspace.exclusive(async (rt) => {
      await held;
      await rt.writeFile('a.txt', 'restored');
    });
    const read = workspace.readFile('a.txt').then(text);
    release();
    await restore;
    expect(await read).toBe('restored');
  });
});

describe('Workspace changed paths', () => {
  it('knows nothing about a freshly attached runtime, then collects its own writes and every command\'s changes', async () => {
    const workspace = Workspace.of(createEmbeddedRuntime({ files: { 'a.txt': 'a', 'src/b.txt': 'b' } }));
    expect(workspace.takeChanges()).toEqual({ all: true });
    expect(workspace.unchanged).toBe(true);
    await workspace.writeFile('a.txt', 'edited');
    await workspace.exec('mkdir -p out && echo x > out/made.txt && rm src/b.txt');
    await workspace.exec('cat a.txt; ls src'); // reads change nothing
    const taken = workspace.takeChanges();
    expect(taken.all).toBe(false);
    expect(taken.all === false && taken.paths).toEqual(expect.arrayContaining(['a.txt', 'out', 'out/made.txt', 'src/b.txt']));
    expect(workspace.takeChanges()).toEqual({ all: false, paths: [] });
  });

  it('a change made while a snapshot holds the taken paths goes to the next take; a failed snapshot gives its paths back', async () => {
    const workspace = Workspace.of(createEmbeddedRuntime());
    workspace.takeChanges();
    await workspace.writeFile('first.txt', '1');
    const taken = workspace.takeChanges();
    await workspace.writeFile('second.txt', '2');
    workspace.restoreChanges(taken);
    expect(workspace.takeChanges()).toEqual({ all: false, paths: ['first.txt', 'second.txt'] });
  });

  it('says everything changed after a runtime hand-over, or when more changed than is worth listing', async () => {
    const workspace = Workspace.of(createEmbeddedRuntime());
    workspace.takeChanges();
    const next = createEmbeddedRuntime();
    workspace.attach(next);
    expect(workspace.takeChanges()).toEqual({ all: true });
    await workspace.exec('mkdir some && echo 1 > some/f1');
    expect(workspace.takeChanges()).toEqual({ all: false, paths: ['some', 'some/f1'] });
    // A generated folder, written behind the workspace's back (the runtime's watch reports it).
    const many = Array.from({ length: 5100 }, (_, i) => ({ path: `many/f${i}`, data: new Uint8Array([i % 256]) }));
    await next.applyChanges({ removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: many });
    expect(workspace.takeChanges()).toEqual({ all: true });
  });

  it('scans and applies changes on a runtime without its own scan, through its ordinary methods', async () => {
    const real = createEmbeddedRuntime({ files: { 'keep/node_modules/x.js': 'x', 'keep/a.txt': 'a' } });
    const plain = { ...real, kind: real.kind, workdir: real.workdir, scan: undefined, applyChanges: undefined, flushChanges: undefined };
    for (const key of ['readFile', 'writeFile', 'readdir', 'stat', 'mkdir', 'rm', 'rename', 'exec', 'watch', 'realpath'] as const) {
      Object.assign(plain, { [key]: (real[key] as (...a: unknown[]) => unknown).bind(real) });
    }
    const workspace = new Workspace(expected);
    workspace.attach(plain);
    const scanned = await workspace.scan([''], { excludeNames: ['node_modules'] });
    expect(scanned.map((e) => e.path)).toEqual(['', 'keep', 'keep/a.txt']);
    expect(scanned[2]).toMatchObject({ kind: 'file', size: 1, id: '2e65efe2a145dda7ee51d1741299f848e5bf752e' }); // git hash-object of "a"
    await workspace.applyChanges({ removeFiles: ['keep/a.txt'], removeFolders: ['keep'], makeFolders: [], writeFiles: [{ path: 'b.txt', data: new TextEncoder().encode('b') }] });
    expect(text(await real.readFile('keep/node_modules/x.js'))).toBe('x');
    expect(text(await real.readFile('b.txt'))).toBe('b');
    expect(await workspace.settleChanges()).toBe(false); // it cannot say when its changes are all reported
  });
});
