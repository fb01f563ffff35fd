// Replacing the whole workdir of the in-memory file system at once (a zip or repo import, a staged import's
// commit), with its synchronous calls: a repo import writes tens of thousands of files, and the watchers hear
// about them in one batch afterwards.

import type { InMemoryFs } from 'just-bash';
import { parentOf } from '../paths';
import type { WorkspaceEntry } from '../zip/workspace-zip';
import { copyEntry } from './memory-fs';

/** Empties `workdir` and writes `entries` (workdir-relative, already validated); returns the relative paths removed. */
export async function replaceWorkdir(memory: InMemoryFs, workdir: string, entries: WorkspaceEntry[]): Promise<string[]> {
  const removed = await clearWorkdir(memory, workdir);
  for (const entry of entries) {
    const absolute = `${workdir}/${entry.path}`;
    if (entry.kind === 'dir') memory.mkdirSync(absolute, { recursive: true });
    else memory.writeFileSync(absolute, entry.data);
  }
  const prefixLength = workdir.length + 1;
  return removed.map((path) => path.slice(prefixLength));
}

/**
 * Copies into `next` what `previous` holds outside `workdir` (such as /tmp and the shell's own files), so `next`
 * can take its place; returns the workdir-relative paths that go with `previous`.
 */
export async function carryOverOutside(previous: InMemoryFs, next: InMemoryFs, workdir: string): Promise<string[]> {
  const prefix = `${workdir}/`;
  const removed: string[] = [];
  for (const path of previous.getAllPaths()) {
    if (path.startsWith(prefix)) removed.push(path.slice(prefix.length));
    else if (path !== workdir && !workdir.startsWith(`${path === '/' ? '' : path}/`)) {
      await copyEntry(previous, next, path);
    }
  }
  return removed;
}

/** Empties the workdir; returns the absolute paths removed. */
async function clearWorkdir(memory: InMemoryFs, workdir: string): Promise<string[]> {
  const prefix = `${workdir}/`;
  const paths = memory.getAllPaths().filter((path) => path.startsWith(prefix));
  const parents = new Set(paths.map(parentOf));
  // Leaves first (files, links, empty folders: each removal is a lookup), then the folders deepest first, when
  // the listing each folder removal does has little left to scan.
  for (const path of paths) if (!parents.has(path)) await memory.rm(path, { force: true });
  const folders = paths.filter((path) => parents.has(path)).sort((a, b) => b.length - a.length);
  for (const folder of folders) await memory.rm(folder, { recursive: true, force: true });
  return paths;
}
