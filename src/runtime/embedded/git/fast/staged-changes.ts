// What the index stages against HEAD, with renames paired when the moved contents are unchanged (git's exact pass).
// A deletion and an addition left unpaired might still be a rename by similarity, which git scores by content
// unless their sizes already differ by more than half (then git does not score them either). A pair git would
// score is left to just-git (null), so no rename is ever shown differently from git.
import type { IndexEntry } from '../git-index';
import { comparePaths } from './untracked';

/** A file as HEAD's tree has it. */
export type HeadFile = { blobId: string; mode: number };

export type StagedChange =
  | { kind: 'added' | 'modified'; path: string }
  | { kind: 'deleted'; path: string }
  | { kind: 'renamed'; path: string; from: string };

/** The staged changes in path order (a rename under its new path), or null (see the file comment). */
export async function stagedChanges(head: ReadonlyMap<string, HeadFile>, index: readonly IndexEntry[], sizeOf: (blobId: string) => Promise<number>): Promise<StagedChange[] | null> {
  const changes: StagedChange[] = [];
  const added: IndexEntry[] = [];
  const staged = new Set<string>();
  for (const entry of index) {
    staged.add(entry.path);
    const before = head.get(entry.path);
    if (!before) added.push(entry);
    else if (before.blobId !== entry.blobId || before.mode !== entry.mode) changes.push({ kind: 'modified', path: entry.path });
  }
  const deletedById = new Map<string, string[]>();
  const deleted: string[] = [];
  for (const [path, file] of head) {
    if (staged.has(path)) continue;
    deleted.push(path);
    const same = deletedById.get(file.blobId);
    if (same) same.push(path);
    else deletedById.set(file.blobId, [path]);
  }
  const renamedFrom = new Set<string>();
  const unpairedAdded: IndexEntry[] = [];
  for (const entry of added) {
    const from = deletedById.get(entry.blobId)?.shift();
    if (from !== undefined && entry.blobId !== EMPTY_BLOB) {
      renamedFrom.add(from);
      changes.push({ kind: 'renamed', path: entry.path, from });
    } else unpairedAdded.push(entry);
  }
  const unpairedDeleted = deleted.filter((path) => !renamedFrom.has(path));
  if (unpairedAdded.length > 0 && unpairedDeleted.length > 0) {
    const addedSizes = await Promise.all(unpairedAdded.map((entry) => sizeOf(entry.blobId)));
    const deletedSizes = await Promise.all(unpairedDeleted.map((path) => sizeOf(head.get(path)!.blobId)));
    for (const a of addedSizes) for (const d of deletedSizes) if (Math.abs(a - d) * 2 <= Math.max(a, d)) return null;
  }
  for (const entry of unpairedAdded) changes.push({ kind: 'added', path: entry.path });
  for (const path of unpairedDeleted) changes.push({ kind: 'deleted', path });
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}

// Git does not pair empty files as renames.
const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
