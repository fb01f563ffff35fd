import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../../runtime/embedded';
import { createWebContainerDouble } from '../../runtime/testing/webcontainer-double';
import { createWebContainerRuntime } from '../../runtime/webcontainer/webcontainer';
import type { ScannedEntry, ScanOptions } from '../../runtime/types';
import { Workspace } from '../../runtime/workspace/workspace';
import { createSessionStore, filesOfTree, type SessionStore } from '../../store';
import { WorkspaceSnapshots, type Capture } from './workspace-snapshots';

const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
let counter = 0;
const opened: SessionStore[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

/** A workspace over an embedded runtime whose scans are recorded, its tracker, and a store to commit into. */
async function setup(files: Record<string, string> = {}) {
  const store = createSessionStore({ prefix: `tracker-${counter++}-`, collectAfterMs: 60_000 });
  opened.push(store);
  const runtime = createEmbeddedRuntime({ files });
  const scans: { paths: string[]; options?: ScanOptions }[] = [];
  const scan = runtime.scan.bind(runtime);
  runtime.scan = (paths: string[], options?: ScanOptions): Promise<ScannedEntry[]> => {
    scans.push({ paths, options });
    return scan(paths, options);
  };
  const workspace = Workspace.of(runtime);
  const snapshots = new WorkspaceSnapshots(workspace, store.objects);
  const { id } = await store.createSession();
  const commit = async (capture: Capture) => {
    const bytes = await store.commitSnapshot(id, 'latest', capture);
    snapshots.stored(capture);
    return bytes;
  };
  const contents = async (capture: Capture) => {
    const reader = { tree: (t: string) => snapshots.tree(t), blobs: (ids: Iterable<string>) => snapshots.blobs([...ids]) };
    const { files: read } = await filesOfTree(reader, capture.root);
    return Object.fromEntries([...read].map(([p, d]) => [p, dec(d)]));
  };
  return { store, runtime, workspace, snapshots, scans, commit, contents, id };
}

describe('WorkspaceSnapshots', () => {
  it('reads the whole workspace once, then only what changed; a read-only command reads and stores nothing', async () => {
    const s = await setup({ 'src/a.ts': 'a', 'src/b.ts': 'b', 'README.md': 'r', 'node_modules/dep/x.js': 'dep' });
    const first = await s.snapshots.capture();
    expect(s.scans.map((c) => c.paths)).toEqual([['']]);
    expect(await s.contents(first)).toEqual({ 'src/a.ts': 'a', 'src/b.ts': 'b', 'README.md': 'r' });
    await s.commit(first);

    await s.workspace.exec('cat src/a.ts; ls -R; echo x > node_modules/dep/y.js');
    const idle = await s.snapshots.capture();
    expect(s.scans).toHaveLength(1); // nothing asked of the runtime
    expect(idle).toEqual({ root: first.root, objects: { blobs: new Map(), trees: new Map() } });
    expect(await s.commit(idle)).toBe(0);

    await s.workspace.writeFile('src/a.ts', 'edited');
    await s.workspace.exec('echo new > src/new.ts');
    const turn = await s.snapshots.capture();
    expect(s.scans[1].paths).toEqual(['src/a.ts', 'src/new.ts']);
    expect(turn.objects.blobs.size).toBe(2);
    expect(turn.objects.trees.size).toBe(2); // src and the root: nothing else is rebuilt
    expect(await s.contents(turn)).toEqual({ 'src/a.ts': 'edited', 'src/b.ts': 'b', 'src/new.ts': 'new\n', 'README.md': 'r' });
  });

  it('a capture sees the files as they were when it was taken, whatever runs after it', async () => {
    const s = await setup({ 'a.txt': 'before' });
    await s.commit(await s.snapshots.capture());
    await s.workspace.writeFile('a.txt', 'at the checkpoint');
    const checkpoint = s.snapshots.capture();
    const later = s.workspace.writeFile('a.txt', 'after');
    expect(await s.contents(await checkpoint)).toEqual({ 'a.txt': 'at the checkpoint' });
    await later;
    expect(await s.contents(await s.snapshots.capture())).toEqual({ 'a.txt': 'after' });
  });

  it('falls back to comparing everything when the changed paths cannot be trusted, reading only unknown files', async () => {
    const s = await setup(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`f${i}.txt`, `file ${i}`])));
    await s.commit(await s.snapshots.capture());
    // More changes than are worth listing (a generated folder), then a runtime that says everything may have changed.
    const generated = Array.from({ length: 5100 }, (_, i) => ({ path: `gen/g${i}`, data: new TextEncoder().encode(`${i}\n`) }));
    await s.runtime.applyChanges({ removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: generated });
    const overflow = await s.snapshots.capture();
    expect(s.scans.at(-1)?.paths).toEqual(['']);
    const scanned = await s.runtime.scan([''], { withData: true, knownIds: s.scans.at(-1)?.options?.knownIds });
    expect(scanned.filter((e) => e.kind === 'file' && e.data).length).toBe(5100); // the 50 known files stay where they are
    await s.commit(overflow);
    expect(Object.keys(await s.contents(overflow))).toHaveLength(5150);

    await s.workspace.exec('rm -r /home/project/gen; echo changed > /home/project/f3.txt');
    s.workspace.noteChanged(['']); // e.g. the embedded worker restarted
    const whole = await s.snapshots.capture();
    expect(s.scans.at(-2)?.paths).toEqual(['']);
    const files = await s.contents(whole);
    expect(Object.keys(files)).toHaveLength(50);
    expect(files['f3.txt']).toBe('changed\n');
  });

  it('after a runtime hand-over compares everything in the new runtime', async () => {
    const s = await setup({ 'a.txt': 'old runtime' });
    await s.commit(await s.snapshots.capture());
    const next: EmbeddedRuntime = createEmbeddedRuntime({ files: { 'a.txt': 'new runtime', 'b.txt': 'b' } });
    s.workspace.attach(next);
    expect(await s.contents(await s.snapshots.capture())).toEqual({ 'a.txt': 'new runtime', 'b.txt': 'b' });
  });

  it('restores a tree by writing only what differs, keeps node_modules, and undoes exactly', async () => {
    const s = await setup({ 'keep.txt': 'same', 'src/a.ts': 'v1', 'src/gone.ts': 'g', 'node_modules/dep/index.js': 'dep' });
    const early = await s.snapshots.capture();
    await s.commit(early);
    await s.workspace.writeFile('src/a.ts', 'v2');
    await s.workspace.rm('src/gone.ts');
    await s.workspace.exec('mkdir -p lib/deep && echo x > lib/deep/added.ts && mkdir -p lib/node_modules/x && echo y > lib/node_modules/x/i.js');
    const now = await s.snapshots.capture();
    await s.commit(now);

    const written: string[] = [];
    const stop = s.runtime.watch((paths) => written.push(...paths));
    const undo = await s.workspace.exclusive((rt) => s.snapshots.restore(rt, early.root));
    stop();
    expect(written.sort()).toEqual(['lib/deep', 'lib/deep/added.ts', 'src/a.ts', 'src/gone.ts']); // lib stays: it holds node_modules
    expect(dec(await s.runtime.readFile('src/a.ts'))).toBe('v1');
    expect(dec(await s.runtime.readFile('src/gone.ts'))).toBe('g');
    expect(dec(await s.runtime.readFile('node_modules/dep/index.js'))).toBe('dep');
    expect(dec(await s.runtime.readFile('lib/node_modules/x/i.js'))).toBe('y\n');
    expect(await s.runtime.stat('lib/deep')).toBeNull();
    expect(await s.snapshots.capture()).toMatchObject({ root: early.root }); // it knows what it holds now

    await s.workspace.exclusive((rt) => s.snapshots.apply(rt, undo));
    expect((await s.snapshots.capture()).root).toBe(now.root);
  });

  it('on a WebContainer (the honest double, no scan of its own), a restore writes what differs and keeps node_modules', async () => {
    const store = createSessionStore({ prefix: `tracker-${counter++}-`, collectAfterMs: 60_000 });
    opened.push(store);
    const double = await createWebContainerDouble();
    const runtime = createWebContainerRuntime(double);
    try {
      await runtime.execStrategy();
      const workspace = Workspace.of(runtime);
      const snapshots = new WorkspaceSnapshots(workspace, store.objects);
      const { id } = await store.createSession();
      await workspace.writeFile('package.json', '{"name":"app"}');
      await workspace.writeFile('src/app.js', 'v1');
      const early = await snapshots.capture();
      await store.commitSnapshot(id, { checkpoint: 0 }, early);
      snapshots.stored(early);
      await workspace.exec('mkdir -p node_modules/left-pad && echo "module.exports = 1" > node_modules/left-pad/index.js');
      await workspace.writeFile('src/app.js', 'v2');
      await workspace.writeFile('src/new.js', 'added');
      await workspace.exclusive((rt) => snapshots.restore(rt, early.root));
      expect(dec(await runtime.readFile('src/app.js'))).toBe('v1');
      expect(await runtime.stat('src/new.js')).toBeNull();
      expect(dec(await runtime.readFile('node_modules/left-pad/index.js'))).toBe('module.exports = 1\n');
    } finally {
      await runtime.dispose();
      double.teardown();
    }
  });

  it('a capture asked for while an import replaces the workspace waits for it, and reads nothing', async () => {
    const s = await setup({ 'old.txt': 'old' });
    await s.commit(await s.snapshots.capture());
    const imported = new Map(Array.from({ length: 5100 }, (_, i) => [`src/f${i}.ts`, new TextEncoder().encode(`export const f${i} = ${i};\n`)]));
    let during: Promise<Capture> | undefined;
    const assumed = await s.snapshots.replacement(() =>
      s.workspace.exclusive(async (rt) => {
        await rt.importFiles!([...imported].map(([path, data]) => ({ path, data }))); // more changes than are listed
        during = s.snapshots.capture(); // e.g. the quiet-time save after the import's change reports
        return s.snapshots.assume(rt, imported);
      }),
    );
    const scans = s.scans.length;
    expect((await during!).root).toBe(assumed.root);
    expect(s.scans).toHaveLength(scans); // nothing compared or read again
  });

  it('keeps what a failed commit needed, and the next commit stores it', async () => {
    const s = await setup({ 'a.txt': 'a' });
    await s.commit(await s.snapshots.capture());
    await s.workspace.writeFile('b.txt', 'new content');
    const failed = await s.snapshots.capture(); // not committed: say the disk was full
    expect(failed.objects.blobs.size).toBe(1);
    const next = await s.snapshots.capture();
    expect(next.root).toBe(failed.root);
    expect(next.objects.blobs.size).toBe(1);
    await s.commit(next);
    expect((await s.snapshots.capture()).objects.blobs.size).toBe(0);
    expect(await s.contents(next)).toEqual({ 'a.txt': 'a', 'b.txt': 'new content' });
  });
});
