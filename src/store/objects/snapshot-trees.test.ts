import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY_TREE_ID, type ObjectId } from '../../runtime/object-id';
import { buildTrees, updateTree, type FlatEntry, type PathContent, type TreeSource } from './trees/build';
import { decodeTree, encodeTree, makeTree, parseGitTreeBody, gitTreeBody, type Tree } from './trees/codec';
import { diffTrees } from './trees/diff';
import { blobIdsOf, identifiedFilesOfTree, memoryReader, snapshotOfFiles } from './trees/files';

const enc = (s: string) => new TextEncoder().encode(s);
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, enc(t)]));

/** A TreeSource over the trees built so far (what the store would hold). */
function memory(...built: { trees: Map<ObjectId, Tree> }[]): TreeSource & { add(trees: Map<ObjectId, Tree>): void } {
  const all = new Map<ObjectId, Tree>();
  const source = {
    add: (trees: Map<ObjectId, Tree>) => trees.forEach((tree, id) => all.set(id, tree)),
    tree: async (id: ObjectId) => {
      const tree = all.get(id);
      if (!tree) throw new Error(`no tree ${id}`);
      return tree;
    },
  };
  for (const b of built) source.add(b.trees);
  return source;
}

/** What real git says the root tree of these files is (git add -A; git write-tree). */
function gitWriteTree(contents: Map<string, Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'conch-tree-'));
  execFileSync('git', ['init', '-q', dir]);
  for (const [path, data] of contents) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  execFileSync('git', ['add', '-A'], { cwd: dir });
  return execFileSync('git', ['write-tree'], { cwd: dir }).toString().trim();
}

describe('snapshot trees', () => {
  it('are git trees: the root id of a set of files is what `git write-tree` gives', async () => {
    const contents = new Map([
      ...files({ 'README.md': '# hi\n', 'a-b': 'dash', 'a.b': 'dot', 'a/b/c.txt': 'deep', 'a/z.txt': 'z', 'ä/ü.txt': 'umlauts', 'Z.txt': 'upper' }),
      ['bin/data.bin', Uint8Array.from({ length: 300 }, (_, i) => i % 256)] as [string, Uint8Array],
    ]);
    const snapshot = await snapshotOfFiles(contents);
    expect(snapshot.root).toBe(gitWriteTree(contents));
    expect(snapshot.objects.blobs.size).toBe(8);
  });

  it('give back each file of a tree with the blob id it is stored under, which is git\'s own id of its bytes', async () => {
    const contents = files({ 'a/x.txt': 'same', 'b/y.txt': 'same', 'c/z.md': 'other\n' });
    const snapshot = await snapshotOfFiles(contents, ['empty']);
    const listed = await identifiedFilesOfTree(memoryReader(snapshot.objects.trees, snapshot.objects.blobs), snapshot.root);
    expect(listed.map((file) => [file.path, new TextDecoder().decode(file.data)])).toEqual([['a/x.txt', 'same'], ['b/y.txt', 'same'], ['c/z.md', 'other\n']]);
    const ids = await blobIdsOf(contents);
    for (const file of listed) expect(file.id).toBe(ids.get(file.path));
    expect(listed[2].id).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: 'other\n' }).toString().trim());
  });

  it('store each file once however often it appears, and keep empty folders', async () => {
    const snapshot = await snapshotOfFiles(files({ 'a/x.txt': 'same', 'b/y.txt': 'same', 'c/z.txt': 'same' }), ['empty', 'a/deeper/empty']);
    expect(snapshot.objects.blobs.size).toBe(1);
    const source = memory(snapshot.objects);
    const root = await source.tree(snapshot.root);
    expect(root.entries.map((e) => e.name)).toEqual(['a', 'b', 'c', 'empty']);
    const empty = root.entries.find((e) => e.name === 'empty')!;
    expect(empty.id).toBe(EMPTY_TREE_ID);
  });

  it('round-trip through their stored record, sizes included, and refuse damaged records', async () => {
    const tree = await makeTree([
      { name: 'z.txt', kind: 'file', id: 'a'.repeat(40), size: 123456 },
      { name: 'dir', kind: 'dir', id: 'b'.repeat(40) },
      { name: 'run.sh', kind: 'file', id: 'c'.repeat(40), size: 0, executable: true },
    ]);
    expect(tree.entries.map((e) => e.name)).toEqual(['dir', 'run.sh', 'z.txt']);
    expect(decodeTree(tree.id, encodeTree(tree))).toEqual(tree);
    expect(() => decodeTree(tree.id, encodeTree(tree).subarray(0, 30))).toThrow(/damaged|cut short/);
    const outOfOrder = new Uint8Array([...gitTreeBody([tree.entries[2]]), ...gitTreeBody([tree.entries[0]])]);
    expect(() => parseGitTreeBody(outOfOrder, (p) => new Error(p))).toThrow(/out of order/);
  });

  it('a change rebuilds only the folders on its path; other folders keep their ids', async () => {
    const base = await snapshotOfFiles(files({ 'p1/src/a.ts': 'a', 'p1/src/b.ts': 'b', 'p2/src/c.ts': 'c', 'top.md': 't' }));
    const source = memory(base.objects);
    const [newId] = (await blobIdsOf([['p1/src/a.ts', enc('A!')]])).values();
    const changed = new Map<string, PathContent>([
      ['p1/src/a.ts', { path: 'p1/src/a.ts', kind: 'file', id: newId, size: 2 }],
      ['gone.txt', { kind: 'missing' }],
      ['new/deep/file.txt', { path: 'new/deep/file.txt', kind: 'file', id: newId, size: 2 }],
    ]);
    const updated = await updateTree(source, base.root, changed);
    // root, p1, p1/src, and the new folders new and new/deep: nothing of p2.
    expect(updated.trees.size).toBe(5);
    const expected = await snapshotOfFiles(files({ 'p1/src/a.ts': 'A!', 'p1/src/b.ts': 'b', 'p2/src/c.ts': 'c', 'top.md': 't', 'new/deep/file.txt': 'A!' }));
    expect(updated.root).toBe(expected.root);
    // Nothing changed: the same root, no trees made.
    const same = await updateTree(source, base.root, new Map([['top.md', { path: 'top.md', kind: 'file', id: (await blobIdsOf([['top.md', enc('t')]])).get('top.md')!, size: 1 }]]));
    expect(same).toEqual({ root: base.root, trees: new Map() });
  });

  it('a changed folder is replaced whole by what is below it now; a deleted one goes', async () => {
    const base = await snapshotOfFiles(files({ 'lib/a.js': 'a', 'lib/old/x.js': 'x', 'keep.txt': 'k' }));
    const source = memory(base.objects);
    const listing: FlatEntry[] = [
      { path: 'a.js', kind: 'file', ...(await idOf('a')) },
      { path: 'fresh', kind: 'dir' },
    ];
    const updated = await updateTree(source, base.root, new Map<string, PathContent>([['lib', { kind: 'dir', below: listing }], ['keep.txt', { kind: 'missing' }]]));
    source.add(updated.trees);
    const diff = await diffTrees(source, base.root, updated.root);
    expect(diff).toEqual({
      removeFiles: [{ path: 'keep.txt', ...(await idOf('k')) }, { path: 'lib/old/x.js', ...(await idOf('x')) }],
      removeFolders: ['lib/old'],
      makeFolders: ['lib/fresh'],
      writeFiles: [],
    });
  });

  it('diffs find what to write and remove, folders made before their files and removed after them', async () => {
    const a = await snapshotOfFiles(files({ 'x/1.txt': '1', 'x/2.txt': '2', 'y.txt': 'y', 'f': 'file' }));
    const b = await snapshotOfFiles(files({ 'x/1.txt': 'one', 'z/deep/3.txt': '3', 'y.txt': 'y', 'f/inside.txt': 'now a folder' }));
    const source = memory(a.objects, b.objects);
    const diff = await diffTrees(source, a.root, b.root);
    expect(diff.removeFiles.map((f) => f.path)).toEqual(['f', 'x/2.txt']);
    expect(diff.makeFolders).toEqual(['f', 'z', 'z/deep']);
    expect(diff.writeFiles.map((f) => f.path)).toEqual(['f/inside.txt', 'x/1.txt', 'z/deep/3.txt']);
    expect((await diffTrees(source, b.root, b.root)).writeFiles).toEqual([]);
    const fromNothing = await diffTrees(source, undefined, a.root);
    expect(fromNothing.writeFiles).toHaveLength(4);
  });

  it('a whole listing builds the same tree as the files it lists', async () => {
    const contents = files({ 'a/b.txt': 'b', 'c.txt': 'c' });
    const ids = await blobIdsOf(contents);
    const built = await buildTrees([...contents].map(([path, data]) => ({ path, kind: 'file' as const, id: ids.get(path)!, size: data.length })));
    expect(built.root).toBe((await snapshotOfFiles(contents)).root);
  });
});

async function idOf(text: string): Promise<{ id: ObjectId; size: number }> {
  const [id] = (await blobIdsOf([['x', enc(text)]])).values();
  return { id, size: enc(text).length };
}
