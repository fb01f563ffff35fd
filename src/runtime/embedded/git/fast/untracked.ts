// The work tree's untracked files, found as git finds them: every folder is walked (from the file system's index of
// paths, so no folder is listed through the file system), `.gitignore` files apply to their folder and below with
// the deeper one winning, `.git/info/exclude` applies everywhere, and an ignored folder is not entered.
import ignore, { type Ignore } from 'ignore';
import type { IndexedListingFs } from '../indexed-listing-fs';

type Rules = { base: string; rules: Ignore };

/** The untracked, not ignored files under `workTree` (workdir-relative, sorted by path bytes). */
export async function untrackedFiles(fs: IndexedListingFs, workTree: string, tracked: ReadonlySet<string>): Promise<string[]> {
  const found: string[] = [];
  const exclude = await readRules(fs, `${workTree}/.git/info/exclude`);
  const stack: Rules[] = exclude ? [{ base: '', rules: exclude }] : [];
  await walk('');
  return found.sort(comparePaths);

  async function walk(folder: string): Promise<void> {
    const names = fs.namesIn(folder === '' ? workTree : `${workTree}/${folder}`);
    if (!names) return;
    const own = names.has('.gitignore') ? await readRules(fs, `${workTree}/${prefixed(folder, '.gitignore')}`) : null;
    if (own) stack.push({ base: folder, rules: own });
    for (const name of [...names].sort()) {
      if (folder === '' && name === '.git') continue;
      const path = prefixed(folder, name);
      const isFolder = fs.namesIn(`${workTree}/${path}`) !== undefined;
      if (isFolder) {
        if (fs.namesIn(`${workTree}/${path}`)?.has('.git')) {
          // Another repository inside: git shows it as one untracked folder and does not look in.
          if (!isIgnored(stack, path, true)) found.push(`${path}/`);
          continue;
        }
        if (!isIgnored(stack, path, true)) await walk(path);
      } else if (!tracked.has(path) && !isIgnored(stack, path, false) && (await isFileOrLink(fs, `${workTree}/${path}`))) {
        found.push(path); // (an empty folder has no names in the index either: it is no file)
      }
    }
    if (own) stack.pop();
  }
}

/**
 * How `git status` lists `files` by default: a file in a folder that holds no tracked file at all is shown as the
 * outermost such folder, with a trailing slash, once.
 */
export function collapseUntracked(files: readonly string[], trackedFolders: ReadonlySet<string>): string[] {
  const shown: string[] = [];
  let last = '';
  for (const file of files) {
    let entry = file;
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
      const folder = file.slice(0, slash);
      if (!trackedFolders.has(folder)) {
        entry = `${folder}/`;
        break;
      }
    }
    if (entry !== last) shown.push(entry);
    last = entry;
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

async function isFileOrLink(fs: IndexedListingFs, path: string): Promise<boolean> {
  try {
    const info = await fs.lstat(path);
    return info.isFile || info.isSymbolicLink;
  } catch {
    return false;
  }
}

function isIgnored(stack: readonly Rules[], path: string, isFolder: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const { base, rules } = stack[i];
    const relative = base === '' ? path : path.slice(base.length + 1);
    const verdict = rules.test(isFolder ? `${relative}/` : relative);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

async function readRules(fs: IndexedListingFs, path: string): Promise<Ignore | null> {
  try {
    return ignore().add(await fs.readFile(path));
  } catch {
    return null; // no such file
  }
}

function prefixed(folder: string, name: string): string {
  return folder === '' ? name : `${folder}/${name}`;
}

/** Git's order of paths (by UTF-16 units, which is byte order for the usual names). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
