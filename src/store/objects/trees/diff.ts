// What differs between two snapshot trees, found by walking only the folders whose ids differ: restoring a checkpoint
// writes what changed, and the Changes tab compares the baseline with the workspace, without touching the rest.
import type { ObjectId } from '../../../runtime/object-id';
import { sameEntry, type TreeSource } from './build';
import type { TreeEntry } from './codec';

export type TreeFile = { path: string; id: ObjectId; size: number };

/** Turning tree `from` into tree `to`: what to remove, which folders to make, which files to write. */
export type TreeDiff = {
  removeFiles: TreeFile[];
  /** Deepest first. */
  removeFolders: string[];
  makeFolders: string[];
  /** `was`: the file `from` had at that path, when it had one. */
  writeFiles: (TreeFile & { was?: TreeFile })[];
};

/**
 * The differences from `from` to `to` (undefined: an empty workspace), sorted by path (removed folders deepest
 * first). Sibling folders are walked together, so a source can load each level of folders in one go.
 */
export async function diffTrees(source: TreeSource, from: ObjectId | undefined, to: ObjectId | undefined): Promise<TreeDiff> {
  const diff: TreeDiff = { removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [] };
  await compare(source, from, to, '', diff);
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  diff.removeFiles.sort(byPath);
  diff.writeFiles.sort(byPath);
  diff.makeFolders.sort();
  diff.removeFolders.sort((a, b) => b.split('/').length - a.split('/').length || (a < b ? -1 : 1));
  return diff;
}

async function compare(source: TreeSource, from: ObjectId | undefined, to: ObjectId | undefined, prefix: string, diff: TreeDiff): Promise<void> {
  if (from === to) return;
  const [before, after] = await Promise.all([entriesOf(source, from), entriesOf(source, to)]);
  const deeper: Promise<void>[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    const path = prefix + name;
    if (now && now.kind === old.kind) {
      if (sameEntry(old, now)) continue;
      if (now.kind === 'file' && old.kind === 'file') diff.writeFiles.push({ path, id: now.id, size: now.size, was: { path, id: old.id, size: old.size } });
      else deeper.push(compare(source, old.id, now.id, `${path}/`, diff));
    } else {
      deeper.push(removeEntry(source, old, path, diff).then(() => (now ? addEntry(source, now, path, diff) : undefined)));
    }
  }
  for (const [name, now] of after) if (!before.has(name)) deeper.push(addEntry(source, now, prefix + name, diff));
  await Promise.all(deeper);
}

async function removeEntry(source: TreeSource, entry: TreeEntry, path: string, diff: TreeDiff): Promise<void> {
  if (entry.kind === 'file') {
    diff.removeFiles.push({ path, id: entry.id, size: entry.size });
    return;
  }
  await compare(source, entry.id, undefined, `${path}/`, diff);
  diff.removeFolders.push(path);
}

async function addEntry(source: TreeSource, entry: TreeEntry, path: string, diff: TreeDiff): Promise<void> {
  if (entry.kind === 'file') {
    diff.writeFiles.push({ path, id: entry.id, size: entry.size });
    return;
  }
  diff.makeFolders.push(path);
  await compare(source, undefined, entry.id, `${path}/`, diff);
}

async function entriesOf(source: TreeSource, id: ObjectId | undefined): Promise<Map<string, TreeEntry>> {
  if (id === undefined) return new Map();
  return new Map((await source.tree(id)).entries.map((entry) => [entry.name, entry]));
}

/** Every file and folder of tree `root`, folders before what they hold. */
export async function listTree(source: TreeSource, root: ObjectId): Promise<{ files: TreeFile[]; folders: string[] }> {
  const diff = await diffTrees(source, undefined, root);
  return { files: diff.writeFiles, folders: diff.makeFolders };
}
