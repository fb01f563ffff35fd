// What the embedded runtime reads and writes of its in-memory file system below the shell: entry types and folder
// listings, the workspace as a scan reads it, and a set of changes applied straight into memory (a restore).

import type { IFileSystem, InMemoryFs } from 'just-bash';
import { parentOf, relativeTo } from '../paths';
import type { EntryType, WorkspaceChanges } from '../types';
import type { ScanSource } from '../workspace/scan';
import { makeExcluder, packWorkspaceZip, type WorkspaceEntry } from '../zip/workspace-zip';

/** The entry's type, or undefined when missing; `follow` resolves symlinks like stat(2). */
export async function entryType(fs: IFileSystem, absolute: string, follow: boolean): Promise<EntryType | undefined> {
  try {
    const info = follow ? await fs.stat(absolute) : await fs.lstat(absolute);
    return info.isSymbolicLink ? 'symlink' : info.isDirectory ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/** A folder's entries with their types (links not followed), sorted by name. */
export async function listFolder(fs: IFileSystem, absolute: string): Promise<{ name: string; type: EntryType }[]> {
  const read = fs.readdirWithFileTypes;
  const entries = read
    ? (await read(absolute)).map((e) => ({
        name: e.name,
        type: (e.isSymbolicLink ? 'symlink' : e.isDirectory ? 'dir' : 'file') as EntryType,
      }))
    : await Promise.all(
        (await fs.readdir(absolute)).map(async (name) => ({
          name,
          type: (await entryType(fs, `${absolute}/${name}`, false)) ?? ('file' as EntryType),
        })),
      );
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The workspace under `workdir` as a scan reads it: links to files read as the file, links to folders skipped.
 * `settled` says nothing writes while it is read (a rollback copy): folders are then listed from one index of all
 * paths, since just-bash's readdir scans every path there is and a copy after `git` or `npm install` lists hundreds.
 */
export function memoryScanSource(fs: IFileSystem, workdir: string, settled = false): ScanSource {
  const absolute = (relative: string) => (relative === '' ? workdir : `${workdir}/${relative}`);
  let listing: Map<string, string[]> | undefined;
  const listed = (folder: string) => {
    if (!settled || !fs.getAllPaths) return undefined;
    listing ??= childrenIndex(fs.getAllPaths());
    return listing.get(folder);
  };
  const kindOf = async (target: string): Promise<'file' | 'dir' | undefined> => {
    const type = await entryType(fs, target, false);
    if (type !== 'symlink') return type;
    return (await entryType(fs, target, true)) === 'file' ? 'file' : undefined;
  };
  return {
    kindOf: (relative) => kindOf(absolute(relative)),
    list: async (relative) => {
      const folder = absolute(relative);
      const names = listed(folder);
      const entries = names
        ? await Promise.all(names.sort().map(async (name) => ({ name, type: (await entryType(fs, `${folder}/${name}`, false)) ?? ('file' as EntryType) })))
        : await listFolder(fs, folder);
      if (!entries.some((entry) => entry.type === 'symlink')) return entries.map((entry) => ({ name: entry.name, kind: entry.type as 'file' | 'dir' }));
      return Promise.all(
        entries.map(async (entry) => ({ name: entry.name, kind: entry.type === 'symlink' ? await kindOf(`${folder}/${entry.name}`) : entry.type })),
      );
    },
    read: (relative) => fs.readFileBuffer(absolute(relative)),
  };
}

/** Folder -> the names in it, from every stored path (absolute, normalised). */
function childrenIndex(paths: Iterable<string>): Map<string, string[]> {
  const children = new Map<string, string[]>();
  for (const path of paths) {
    const cut = path.lastIndexOf('/');
    if (cut < 0 || path === '/') continue;
    const folder = cut === 0 ? '/' : path.slice(0, cut);
    let names = children.get(folder);
    if (!names) children.set(folder, (names = []));
    names.push(path.slice(cut + 1));
  }
  return children;
}

/**
 * Applies `changes` (absolute paths inside `workdir`, already checked) straight into `memory`: removals, folders
 * only when empty, then new folders and files, clearing whatever stands in their way. Returns the paths changed.
 */
export async function applyToMemory(memory: InMemoryFs, fs: IFileSystem, workdir: string, changes: WorkspaceChanges): Promise<string[]> {
  const changed: string[] = [];
  for (const target of changes.removeFiles) {
    const type = await entryType(fs, target, false);
    if (type === 'file' || type === 'symlink') {
      await memory.rm(target, { force: true });
      changed.push(target);
    }
  }
  for (const target of [...changes.removeFolders].sort((a, b) => b.length - a.length)) {
    if ((await entryType(fs, target, false)) === 'dir' && (await memory.readdir(target)).length === 0) {
      await memory.rm(target, { recursive: true, force: true });
      changed.push(target);
    }
  }
  for (const target of changes.makeFolders) {
    await clearWayFor(memory, fs, workdir, target, 'dir');
    memory.mkdirSync(target, { recursive: true });
    changed.push(target);
  }
  for (const file of changes.writeFiles) {
    await clearWayFor(memory, fs, workdir, file.path, 'file');
    memory.writeFileSync(file.path, file.data);
    changed.push(file.path);
  }
  return changed;
}

/** Removes what stands where a `kind` is about to be made: a file or link on a parent of the path, or a folder where a file goes. */
async function clearWayFor(memory: InMemoryFs, fs: IFileSystem, workdir: string, target: string, kind: 'file' | 'dir'): Promise<void> {
  let current = workdir;
  for (const segment of target.slice(workdir.length + 1).split('/').slice(0, -1)) {
    current += `/${segment}`;
    const type = await entryType(fs, current, false);
    if (type === 'dir') continue;
    if (type !== undefined) await memory.rm(current, { force: true });
    break;
  }
  const type = await entryType(fs, target, false);
  if (type === undefined || (type === 'dir' && kind === 'dir')) return;
  await memory.rm(target, { recursive: type === 'dir', force: true });
}

/** Copies one entry (not its children) from `from` to `to`, keeping its kind, mode and time; links stay links. */
export async function copyEntry(from: InMemoryFs, to: InMemoryFs, path: string): Promise<void> {
  const info = await from.lstat(path);
  if (info.isSymbolicLink) {
    to.mkdirSync(parentOf(path), { recursive: true });
    await to.symlink(await from.readlink(path), path);
  } else if (info.isDirectory) {
    to.mkdirSync(path, { recursive: true });
  } else {
    to.writeFileSync(path, await from.readFileBuffer(path), undefined, { mode: info.mode, mtime: info.mtime });
  }
}

/** The workspace under `workdir` as a zip, `exclude`d paths left out; a link to a file is stored as the file, links to folders are skipped (they may loop). */
export async function exportMemoryZip(fs: IFileSystem, workdir: string, exclude: readonly string[]): Promise<Uint8Array> {
  const excluded = makeExcluder(exclude);
  const entries: WorkspaceEntry[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await listFolder(fs, dir)) {
      const absolute = `${dir === '/' ? '' : dir}/${entry.name}`;
      const relative = relativeTo(workdir, absolute) ?? entry.name;
      if (excluded(relative)) continue;
      const type = entry.type === 'symlink' ? await entryType(fs, absolute, true) : entry.type;
      if (type === 'dir' && entry.type === 'dir') {
        entries.push({ path: relative, kind: 'dir' });
        await walk(absolute);
      } else if (type === 'file') {
        entries.push({ path: relative, kind: 'file', data: await fs.readFileBuffer(absolute) });
      }
    }
  };
  await walk(workdir);
  return packWorkspaceZip(entries);
}
