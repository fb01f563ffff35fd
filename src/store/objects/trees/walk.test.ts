import { describe, expect, it } from 'vitest';
import { EMPTY_TREE_ID, gitBlobId, type ObjectId } from '../../../runtime/object-id';
import type { TreeSource } from './build';
import { makeTree, type Tree, type TreeEntry } from './codec';
import { walkTrees } from './walk';

const enc = (s: string) => new TextEncoder().encode(s);
const file = async (name: string, text: string): Promise<TreeEntry> => ({ name, kind: 'file', id: await gitBlobId(enc(text)), size: text.length });
const dir = (name: string, tree: Tree): TreeEntry => ({ name, kind: 'dir', id: tree.id });

/** A TreeSource over `trees` that counts its reads of each id. */
function countingSource(...trees: Tree[]): TreeSource & { reads: Map<ObjectId, number> } {
  const byId = new Map(trees.map((tree) => [tree.id, tree]));
  const reads = new Map<ObjectId, number>();
  return {
    reads,
    tree: async (id) => {
      reads.set(id, (reads.get(id) ?? 0) + 1);
      const tree = byId.get(id);
      if (!tree) throw new Error(`no tree ${id}`);
      return tree;
    },
  };
}

/** Two roots sharing folder `lib` (itself holding `lib/util`), one of them also holding an empty folder. */
async function sharedTrees() {
  const util = await makeTree([await file('u.ts', 'util')]);
  const lib = await makeTree([await file('l.ts', 'lib'), dir('util', util)]);
  const empty: Tree = { id: EMPTY_TREE_ID, entries: [] };
  const first = await makeTree([await file('a.ts', 'a'), dir('empty', empty), dir('lib', lib)]);
  const second = await makeTree([await file('b.ts', 'b'), dir('lib', lib), dir('vendor', util)]);
  return { util, lib, empty, first, second };
}

describe('walkTrees', () => {
  it('reads each reachable tree once, a folder shared by roots and levels included, and visits it once', async () => {
    const { util, lib, empty, first, second } = await sharedTrees();
    const source = countingSource(util, lib, empty, first, second);
    const visited: ObjectId[] = [];
    const seen = await walkTrees(source, [first.id, second.id], (tree) => visited.push(tree.id));
    expect([...source.reads.values()].every((n) => n === 1)).toBe(true);
    expect(new Set(source.reads.keys())).toEqual(new Set([first.id, second.id, lib.id, empty.id, util.id]));
    expect(visited.sort()).toEqual([first.id, second.id, lib.id, empty.id, util.id].sort());
    expect(seen).toEqual(new Set(visited));
  });

  it('walks level by level: a level is visited before the next is read', async () => {
    const { util, lib, empty, first, second } = await sharedTrees();
    const visited: ObjectId[] = [];
    await walkTrees(countingSource(util, lib, empty, first, second), [first.id, second.id], (tree) => visited.push(tree.id));
    // util is both second's vendor/ (level 1) and lib's util/ (level 2): read at the first level it is met.
    expect(visited).toEqual([first.id, second.id, empty.id, lib.id, util.id]);
  });

  it('reads a root given twice once', async () => {
    const { util, lib } = await sharedTrees();
    const source = countingSource(util, lib);
    const visited: ObjectId[] = [];
    await walkTrees(source, [lib.id, lib.id], (tree) => visited.push(tree.id));
    expect(source.reads.get(lib.id)).toBe(1);
    expect(visited).toEqual([lib.id, util.id]);
  });

  it('visits an empty tree and reads nothing more; no roots read nothing', async () => {
    const empty: Tree = { id: EMPTY_TREE_ID, entries: [] };
    const source = countingSource(empty);
    const visited: Tree[] = [];
    await walkTrees(source, [EMPTY_TREE_ID], (tree) => visited.push(tree));
    expect(visited).toEqual([empty]);
    expect([...source.reads]).toEqual([[EMPTY_TREE_ID, 1]]);
    const none = countingSource();
    expect(await walkTrees(none, [], () => expect.fail('nothing to visit'))).toEqual(new Set());
    expect(none.reads.size).toBe(0);
  });

  it('does not read trees already seen, nor what only they reach, and adds what it reads to seen', async () => {
    const { util, lib, empty, first, second } = await sharedTrees();
    const source = countingSource(util, lib, empty, first, second);
    const seen = new Set([lib.id]);
    const returned = await walkTrees(source, [first.id, lib.id], () => undefined, seen);
    expect(returned).toBe(seen);
    expect(new Set(source.reads.keys())).toEqual(new Set([first.id, empty.id]));
    expect(seen).toEqual(new Set([lib.id, first.id, empty.id]));
  });

  it('rejects when a tree cannot be read', async () => {
    const { lib } = await sharedTrees();
    await expect(walkTrees(countingSource(lib), [lib.id], () => undefined)).rejects.toThrow(/no tree/);
  });
});
