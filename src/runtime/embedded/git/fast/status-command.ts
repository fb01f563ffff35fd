// `git status` in its everyday forms (long, `-s`/`--short`, `--porcelain[=v1]`, each with or without `-b`), written
// the way git 2.39 writes them, from the stat-cached state (work-tree-state.ts). Other options, path limits, a
// subfolder as cwd and paths git would quote return null: just-git runs the command then.
import type { GitResult } from '../git-arguments';
import type { StagedChange } from './staged-changes';
import { collapseUntracked, foldersOf, untrackedFiles } from './untracked';
import type { FileStats, WorkTreeChange } from './work-tree-scan';
import { saveRefreshed, type WorkTreeState } from './work-tree-state';
import type { IndexedListingFs } from '../indexed-listing-fs';

type Format = { kind: 'long' | 'short' | 'porcelain'; branch: boolean };

/** The format `args` (after `status`) ask for, or null when they ask for something this file does not write. */
export function statusFormat(args: readonly string[]): Format | null {
  const format: Format = { kind: 'long', branch: false };
  for (const arg of args) {
    if (arg === '-s' || arg === '--short') format.kind = format.kind === 'porcelain' ? 'porcelain' : 'short';
    else if (arg === '--porcelain' || arg === '--porcelain=v1') format.kind = 'porcelain';
    else if (arg === '-b' || arg === '--branch') format.branch = true;
    else if (arg === '-sb' || arg === '-bs') Object.assign(format, { kind: format.kind === 'porcelain' ? 'porcelain' : 'short', branch: true });
    else if (arg === '--long') format.kind = 'long';
    else return null;
  }
  return format;
}

/** `git status` from `state` run at the top of the work tree, or null when a path would need git's quoting. */
export async function runStatus(fs: IndexedListingFs, stats: FileStats, state: WorkTreeState, format: Format): Promise<GitResult | null> {
  const staged = state.staged;
  if (!staged) return null;
  const tracked = new Set(state.index.map((entry) => entry.path));
  const trackedFolders = foldersOf(tracked);
  const untracked = collapseUntracked(await untrackedFiles(fs, stats, state.workTree, tracked, trackedFolders), trackedFolders);
  const unstaged = state.scan.changes;
  const shown = [...staged.flatMap((change) => (change.kind === 'renamed' ? [change.path, change.from] : [change.path])), ...unstaged.map((c) => c.entry.path), ...untracked];
  if (shown.some(needsQuoting)) return null;
  await saveRefreshed(fs, state);
  const stdout = format.kind === 'long' ? longStatus(state.branch, staged, unstaged, untracked) : shortStatus(state.branch, format.branch, staged, unstaged, untracked);
  return { stdout, stderr: '', exitCode: 0 };
}

function shortStatus(branch: string, withBranch: boolean, staged: StagedChange[], unstaged: WorkTreeChange[], untracked: string[]): string {
  const rows = new Map<string, { x: string; y: string; from?: string }>();
  for (const change of staged) rows.set(change.path, { x: STAGED_LETTER[change.kind], y: ' ', ...(change.kind === 'renamed' ? { from: change.from } : {}) });
  for (const change of unstaged) {
    const row = rows.get(change.entry.path) ?? { x: ' ', y: ' ' };
    row.y = change.kind === 'deleted' ? 'D' : 'M';
    rows.set(change.entry.path, row);
  }
  let out = withBranch ? `## ${branch}\n` : '';
  for (const path of [...rows.keys()].sort(byPath)) {
    const row = rows.get(path)!;
    out += `${row.x}${row.y} ${row.from !== undefined ? `${row.from} -> ` : ''}${path}\n`;
  }
  for (const path of untracked) out += `?? ${path}\n`;
  return out;
}

function longStatus(branch: string, staged: StagedChange[], unstaged: WorkTreeChange[], untracked: string[]): string {
  let out = `On branch ${branch}\n`;
  if (staged.length > 0) {
    out += 'Changes to be committed:\n  (use "git restore --staged <file>..." to unstage)\n';
    for (const change of staged) out += `\t${label(LONG_LABEL[change.kind])}${change.kind === 'renamed' ? `${change.from} -> ` : ''}${change.path}\n`;
    out += '\n';
  }
  if (unstaged.length > 0) {
    const anyDeleted = unstaged.some((change) => change.kind === 'deleted');
    out += `Changes not staged for commit:\n  (use "git add${anyDeleted ? '/rm' : ''} <file>..." to update what will be committed)\n`;
    out += '  (use "git restore <file>..." to discard changes in working directory)\n';
    for (const change of unstaged) out += `\t${label(change.kind === 'deleted' ? 'deleted:' : 'modified:')}${change.entry.path}\n`;
    out += '\n';
  }
  if (untracked.length > 0) {
    out += 'Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n';
    for (const path of untracked) out += `\t${path}\n`;
    out += '\n';
  }
  if (staged.length > 0) return out;
  if (unstaged.length > 0) return `${out}no changes added to commit (use "git add" and/or "git commit -a")\n`;
  if (untracked.length > 0) return `${out}nothing added to commit but untracked files present (use "git add" to track)\n`;
  return `${out}nothing to commit, working tree clean\n`;
}

const STAGED_LETTER: Record<StagedChange['kind'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' };
const LONG_LABEL: Record<StagedChange['kind'], string> = { added: 'new file:', modified: 'modified:', deleted: 'deleted:', renamed: 'renamed:' };

// git lines its labels up in a column as wide as its widest one ("typechange:") and a space.
function label(text: string): string {
  return text.padEnd(12);
}

/**
 * Whether git might print `path` in quotes (core.quotePath): anything beyond printable ASCII, a quote or backslash,
 * or a space (which the short format quotes and the long one does not).
 */
export function needsQuoting(path: string): boolean {
  return /[^\x21-\x7e]|["\\]/.test(path);
}

function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
