// The work tree's untracked files, as git finds them, without walking its folders: the file system's list of every
// path gives the paths no index entry holds, and only those are checked against the ignore rules. The rules are
// git's: each folder's `.gitignore` applies to that folder and below with the deeper one winning, `.git/info/exclude`
// applies everywhere, and nothing inside an ignored folder counts. Another repository inside shows as its folder.
import ignore, { type Ignore } from 'ignore';
import type { IndexedListingFs } from '../indexed-listing-fs';
import type { FileStats } from './work-tree-scan';
import { statData } from './work-tree-scan';

/** The untracked, not ignored files under `workTree` (workdir-relative, sorted; a repository inside ends in '/'). */
export async function untrackedFiles(fs: IndexedListingFs, stats: FileStats, workTree: string, tracked: ReadonlySet<string>, trackedFolders: ReadonlySet<string>): Promise<string[]> {
  const rules = new RuleCache(fs, workTree);
  const prefix = `${workTree}/`;
  const found = new Set<string>();
  for (const absolute of stats.paths?.() ?? fs.getAllPaths()) {
    if (!absolute.startsWith(prefix)) continue;
    const path = absolute.slice(prefix.length);
    if (tracked.has(path) || trackedFolders.has(path) || path === '.git' || path.startsWith('.git/')) continue;
    const inner = path.indexOf('/.git/') !== -1 ? path.indexOf('/.git/') : path.endsWith('/.git') ? path.length - 5 : -1;
    if (inner !== -1) {
      const repository = path.slice(0, inner);
      if (!(await rules.ignores(repository, true))) found.add(`${repository}/`);
      continue;
    }
    const info = await statData(fs, stats, absolute);
    if (!info || info.kind === 'directory' || (await rules.ignores(path, false))) continue;
    found.add(path);
  }
  return [...found].sort(comparePaths);
}

/**
 * How `git status` lists `files` by default: a file in a folder that holds no tracked file at all is shown as the
 * outermost such folder, with a trailing slash, once.
 */
export function collapseUntracked(files: readonly string[], trackedFolders: ReadonlySet<string>): string[] {
  const shown: string[] = [];
  for (const file of files) {
    let entry = file;
    for (let slash = file.indexOf('/'); slash !== -1 && slash < file.length - 1; slash = file.indexOf('/', slash + 1)) {
      const folder = file.slice(0, slash);
      if (!trackedFolders.has(folder)) {
        entry = `${folder}/`;
        break;
      }
    }
    if (entry !== shown[shown.length - 1]) shown.push(entry);
  }
  return shown;
}

/** Every folder that holds a tracked file, at any depth (workdir-relative, no trailing slash). */
export function foldersOf(paths: Iterable<string>): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folder = path.slice(0, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

/** The ignore rules of each folder, read once per command. */
class RuleCache {
  private readonly byFolder = new Map<string, Promise<Ignore | null>>();
  private readonly verdicts = new Map<string, Promise<boolean>>();
  private readonly exclude: Promise<Ignore | null>;

  constructor(
    private readonly fs: IndexedListingFs,
    private readonly workTree: string,
  ) {
    this.exclude = readRules(fs, `${workTree}/.git/info/exclude`);
  }

  /** Whether `path` is ignored, itself or through an ignored folder above it. */
  ignores(path: string, isFolder: boolean): Promise<boolean> {
    const key = `${isFolder ? 'd' : 'f'}${path}`;
    let verdict = this.verdicts.get(key);
    if (!verdict) this.verdicts.set(key, (verdict = this.decide(path, isFolder)));
    return verdict;
  }

  private async decide(path: string, isFolder: boolean): Promise<boolean> {
    const slash = path.lastIndexOf('/');
    const parent = slash === -1 ? '' : path.slice(0, slash);
    if (parent !== '' && (await this.ignores(parent, true))) return true;
    // The folders from the top down to the parent, the deepest rules deciding first.
    const folders = [''];
    for (let at = path.indexOf('/'); at !== -1 && at <= slash; at = path.indexOf('/', at + 1)) folders.push(path.slice(0, at));
    for (let i = folders.length - 1; i >= 0; i--) {
      const rules = await this.rulesOf(folders[i]);
      if (!rules) continue;
      const relative = folders[i] === '' ? path : path.slice(folders[i].length + 1);
      const verdict = rules.test(isFolder ? `${relative}/` : relative);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    const exclude = await this.exclude;
    return exclude !== null && exclude.test(isFolder ? `${path}/` : path).ignored;
  }

  private rulesOf(folder: string): Promise<Ignore | null> {
    let rules = this.byFolder.get(folder);
    if (!rules) this.byFolder.set(folder, (rules = readRules(this.fs, `${this.workTree}/${folder === '' ? '' : `${folder}/`}.gitignore`)));
    return rules;
  }
}

async function readRules(fs: IndexedListingFs, path: string): Promise<Ignore | null> {
  try {
    return ignore().add(await fs.readFile(path));
  } catch {
    return null; // no such file
  }
}

/** Git's order of paths (by UTF-16 units, which is byte order for the usual names). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
