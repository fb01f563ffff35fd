// Runtime.search for the WebContainer: the same walk and matching as the embedded runtime's, run in the page over
// the container's fs API, each level of the walk and each window of file reads asked for at once so the round trips
// to the container overlap instead of queueing one by one.

import { relativeTo } from '../paths';
import type { SearchRequest, SearchResult } from '../search-types';
import { runSearchAsync, type AsyncSearchSource } from '../search/run-search-async';
import type { Listing } from '../search/tree-walk';
import type { EntryType } from '../types';
import type { WcDirEnt, WcFileSystem } from './webcontainer-like';

/** Answers `request` (its path already absolute, inside `workdir`) over `fs`, which is rooted at `workdir`. */
export function searchWebContainer(fs: WcFileSystem, workdir: string, request: SearchRequest): Promise<SearchResult> {
  return runSearchAsync(request, containerSource(fs, workdir));
}

function containerSource(fs: WcFileSystem, workdir: string): AsyncSearchSource {
  // The container's fs reaches nothing above the workdir: those folders read as unreadable.
  const fsPath = (absolute: string): string | null => {
    const relative = relativeTo(workdir, absolute);
    return relative === undefined ? null : relative === '' ? '.' : relative;
  };
  const list = async (folder: string): Promise<Listing | null> => {
    const path = fsPath(folder);
    if (path === null) return null;
    try {
      const entries = await fs.readdir(path, { withFileTypes: true });
      return entries.map((entry) => ({ name: entry.name, type: direntType(entry) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch {
      return null;
    }
  };
  const read = async (file: string): Promise<Uint8Array | null> => {
    const path = fsPath(file);
    if (path === null) return null;
    try {
      return await fs.readFile(path);
    } catch {
      return null; // a folder, a dangling link, a file removed meanwhile
    }
  };
  return {
    async typeOf(path) {
      const at = fsPath(path);
      if (at === null) return null;
      if (at === '.') return 'dir';
      const cut = at.lastIndexOf('/');
      const listing = await list(cut === -1 ? workdir : `${workdir}/${at.slice(0, cut)}`);
      const entry = listing?.find((candidate) => candidate.name === at.slice(cut + 1));
      if (!entry || entry.type !== 'symlink') return entry?.type ?? null;
      // The fs API cannot say where a link points; what it can open tells.
      if ((await list(path)) !== null) return 'dir';
      return (await read(path)) !== null ? 'file' : 'symlink';
    },
    list: (folders) => Promise.all(folders.map(list)),
    readTexts: (files) => Promise.all(files.map(async (file) => {
      const bytes = await read(file);
      return bytes === null ? null : new TextDecoder().decode(bytes);
    })),
    readBytes: (files) => Promise.all(files.map(read)),
  };
}

function direntType(entry: WcDirEnt): EntryType {
  return entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'symlink';
}
