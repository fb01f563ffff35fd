// Snapshot trees built from what a scan found: a whole workspace bottom-up, or an existing tree with only the folders
// on changed paths rebuilt (every other folder keeps its id, so it costs nothing to store again).
import { nextMacrotask } from '../../../runtime/macrotask';
import { EMPTY_TREE_ID, type ObjectId } from '../../../runtime/object-id';
import { badEntryName, makeTree, type Tree, type TreeEntry } from './codec';

/** A workspace entry by workdir-relative path: a file with its blob id and size, or a folder. */
export type FlatEntry = { path: string; kind: 'file'; id: ObjectId; size: number; executable?: boolean } | { path: string; kind: 'dir' };

/** Where existing trees come from (memory, then the store). */
export interface TreeSource {
  tree(id: ObjectId): Promise<Tree>;
}

/** A built tree: its root id, and every tree made on the way (some may be stored already). */
export type BuiltTree = { root: ObjectId; trees: Map<ObjectId, Tree> };

/** What a changed path holds now: nothing, a file, or a folder with everything below it (paths relative to it). */
export type PathContent = { kind: 'missing' } | Extract<FlatEntry, { kind: 'file' }> | { kind: 'dir'; below: FlatEntry[] };

const SLICE_MS = 15;

/** The trees of a whole listing (folders implied by file paths are made too). Throws on an unusable path. */
export async function buildTrees(listing: readonly FlatEntry[]): Promise<BuiltTree> {
  const folders = new Map<string, TreeEntry[]>([['', []]]);
  const folder = (path: string): TreeEntry[] => {
    let entries = folders.get(path);
    if (!entries) {
      entries = [];
      folders.set(path, entries);
      const cut = path.lastIndexOf('/');
      folder(cut < 0 ? '' : path.slice(0, cut)); // its parent exists too
    }
    return entries;
  };
  for (const entry of listing) {
    if (entry.path === '') continue;
    checkPath(entry.path);
    if (entry.kind === 'dir') folder(entry.path);
    else {
      const cut = entry.path.lastIndexOf('/');
      const { path: _, ...file } = entry;
      folder(cut < 0 ? '' : entry.path.slice(0, cut)).push({ ...file, name: entry.path.slice(cut + 1) });
    }
  }
  // Deepest folders first, so each folder's subtrees have their ids when it is hashed; one depth at a time.
  const byDepth = new Map<number, string[]>();
  for (const path of folders.keys()) {
    const depth = path === '' ? 0 : path.split('/').length;
    const level = byDepth.get(depth);
    if (level) level.push(path);
    else byDepth.set(depth, [path]);
  }
  const trees = new Map<ObjectId, Tree>();
  const ids = new Map<string, ObjectId>();
  let sliceStart = Date.now();
  for (const depth of [...byDepth.keys()].sort((a, b) => b - a)) {
    const paths = byDepth.get(depth) ?? [];
    const made = await Promise.all(paths.map((path) => makeTree(folders.get(path) ?? [])));
    made.forEach((tree, i) => {
      const path = paths[i];
      trees.set(tree.id, tree);
      ids.set(path, tree.id);
      if (path === '') return;
      const cut = path.lastIndexOf('/');
      folders.get(cut < 0 ? '' : path.slice(0, cut))?.push({ name: path.slice(cut + 1), kind: 'dir', id: tree.id });
    });
    if (Date.now() - sliceStart > SLICE_MS) {
      await nextMacrotask();
      sliceStart = Date.now();
    }
  }
  return { root: ids.get('') ?? EMPTY_TREE_ID, trees };
}

/**
 * `base` with each changed path replaced by what it holds now. Parent folders missing from `base` are made; a
 * missing path under a folder `base` does not have changes nothing. Returns the new root and the trees made.
 */
export async function updateTree(source: TreeSource, base: ObjectId, changed: Map<string, PathContent>): Promise<BuiltTree> {
  if (changed.has('')) {
    const root = changed.get('')!;
    if (root.kind !== 'dir') throw new Error('The workspace folder itself is missing or a file; nothing can be kept of it.');
    return buildTrees(root.below);
  }
  for (const path of changed.keys()) checkPath(path);
  const trees = new Map<ObjectId, Tree>();
  const trie = new PathTrie();
  for (const [path, content] of changed) trie.put(path, content);
  const root = await rebuild(source, base, trie.root, trees);
  return { root: root ?? EMPTY_TREE_ID, trees };
}

type TrieNode = { content?: PathContent; children: Map<string, TrieNode> };

/** Changed paths by folder; a path below another changed path is covered by it and dropped. */
class PathTrie {
  readonly root: TrieNode = { children: new Map() };

  put(path: string, content: PathContent): void {
    let node = this.root;
    for (const name of path.split('/')) {
      if (node.content) return; // an ancestor is replaced whole
      let child = node.children.get(name);
      if (!child) {
        child = { children: new Map() };
        node.children.set(name, child);
      }
      node = child;
    }
    node.content = content;
    node.children.clear();
  }
}

/** The folder `id` (undefined: not there) with `node`'s changes; undefined when it would not exist. */
async function rebuild(source: TreeSource, id: ObjectId | undefined, node: TrieNode, made: Map<ObjectId, Tree>): Promise<ObjectId | undefined> {
  const base = id === undefined ? undefined : await source.tree(id);
  const entries = new Map((base?.entries ?? []).map((entry) => [entry.name, entry]));
  let changed = false;
  for (const [name, child] of node.children) {
    const before = entries.get(name);
    let after: TreeEntry | undefined;
    if (child.content) after = await entryFor(name, child.content, made);
    else {
      const subtree = await rebuild(source, before?.kind === 'dir' ? before.id : undefined, child, made);
      after = subtree === undefined ? (before?.kind === 'dir' ? undefined : before) : { name, kind: 'dir', id: subtree };
    }
    if (sameEntry(before, after)) continue;
    changed = true;
    if (after) entries.set(name, after);
    else entries.delete(name);
  }
  if (!changed) return id;
  if (base === undefined && entries.size === 0) return undefined;
  const tree = await makeTree([...entries.values()]);
  made.set(tree.id, tree);
  return tree.id;
}

async function entryFor(name: string, content: PathContent, made: Map<ObjectId, Tree>): Promise<TreeEntry | undefined> {
  if (content.kind === 'missing') return undefined;
  if (content.kind === 'file') {
    const { path: _, ...file } = content;
    return { ...file, name };
  }
  const built = await buildTrees(content.below);
  for (const [id, tree] of built.trees) made.set(id, tree);
  return { name, kind: 'dir', id: built.root };
}

/** Whether two folder entries are the same object (for a file, with the same executable bit). */
export function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === b.kind && a.id === b.id && (a.kind !== 'file' || b.kind !== 'file' || !!a.executable === !!b.executable);
}

function checkPath(path: string): void {
  for (const name of path.split('/')) {
    const bad = badEntryName(name);
    if (bad) throw new Error(`The workspace path "${path}" cannot be kept in a snapshot: ${bad}.`);
  }
}
