// The one walk over snapshot trees that the storage figures, the export and the garbage collector's mark share:
// breadth first, each level's trees read together (a store with a cache or one transaction fetches them in one go),
// each tree read once however many folders or roots share it.
import type { ObjectId } from '../../../runtime/object-id';
import type { TreeSource } from './build';
import type { Tree } from './codec';

/**
 * Reads every tree reachable from `roots` once and calls `visit` with each, level by level; a tree already in `seen`
 * is not read (nor what only it reaches), and each tree read is added to `seen`, which is returned. A failed read
 * rejects the walk.
 */
export async function walkTrees(
  source: TreeSource,
  roots: Iterable<ObjectId>,
  visit: (tree: Tree) => void,
  seen: Set<ObjectId> = new Set(),
): Promise<Set<ObjectId>> {
  let level = [...new Set(roots)].filter((id) => !seen.has(id));
  while (level.length > 0) {
    // Marked before reading, so a folder shared within this level or by the next is not queued again.
    for (const id of level) seen.add(id);
    const trees = await Promise.all(level.map((id) => source.tree(id)));
    const next = new Set<ObjectId>();
    for (const tree of trees) {
      visit(tree);
      for (const entry of tree.entries) if (entry.kind === 'dir' && !seen.has(entry.id)) next.add(entry.id);
    }
    level = [...next];
  }
  return seen;
}
