// `git add -A`, `git add .` and `git add <path>...` (files or folders, at the top of the work tree) from the
// stat-cached state: only changed and new files are read, hashed and written, and the index is written once with
// their stat data. Globs, options and paths that match nothing (git's errors) return null for just-git to handle.
import type { IndexEntry } from '../git-index';
import type { GitResult } from '../git-arguments';
import type { IndexedListingFs } from '../indexed-listing-fs';
import { foldersOf, untrackedFiles } from './untracked';
import { indexStatOf, modeOf, readEntry, statData, type FileStats } from './work-tree-scan';
import { writeIndex, type WorkTreeState } from './work-tree-state';

/** The paths `args` (after `add`) stage, '' standing for the whole tree; null when this file does not do it. */
export function addScope(args: readonly string[]): string[] | null {
  const paths: string[] = [];
  let all = false;
  for (const arg of args) {
    if (arg === '-A' || arg === '--all') all = true;
    else if (arg === '--') continue;
    else if (arg.startsWith('-') || /[*?[\]\\]/.test(arg)) return null;
    else paths.push(arg === '.' ? '' : arg.replace(/^\.\//, '').replace(/\/+$/, ''));
  }
  if (paths.length === 0) return all ? [''] : null;
  return paths;
}

/** Stages what `scope` covers (see the file comment); null when a path in it matches nothing. */
export async function runAdd(fs: IndexedListingFs, stats: FileStats, state: WorkTreeState, scope: readonly string[]): Promise<GitResult | null> {
  const covers = (path: string) => scope.some((prefix) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`));
  const entries = new Map<string, IndexEntry>(state.index.map((entry) => [entry.path, entry]));
  const tracked = new Set(entries.keys());
  const untracked = (await untrackedFiles(fs, stats, state.workTree, tracked, foldersOf(tracked))).filter(covers);
  for (const prefix of scope) {
    const matches = (path: string) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
    if (![...entries.keys()].some(matches) && !untracked.some(matches)) return null;
  }
  for (const change of state.scan.changes) {
    const path = change.entry.path;
    if (!covers(path)) continue;
    if (change.kind === 'deleted') entries.delete(path);
    else entries.set(path, { path, blobId: await state.repo.objectStore.write('blob', change.data), mode: change.mode, stat: change.stat });
  }
  for (const path of untracked) {
    if (path.endsWith('/')) return null; // a repository inside this one: just-git says what git would
    const absolute = `${state.workTree}/${path}`;
    const info = await statData(fs, stats, absolute);
    if (!info || info.kind === 'directory') continue;
    const blobId = await state.repo.objectStore.write('blob', await readEntry(fs, absolute, info));
    entries.set(path, { path, blobId, mode: modeOf(info), stat: indexStatOf(info, stats.numbering) });
  }
  await writeIndex(fs, state, [...entries.values()]);
  return { stdout: '', stderr: '', exitCode: 0 };
}
