// Runtime.search over a file system reached through asynchronous calls (a WebContainer's fs, or any Runtime's own
// methods): the same walk and matching as runSearch, with each level of the walk and each window of file reads asked
// for at once, so the round trips overlap instead of queueing one by one.

import type { SearchRequest, SearchResult } from '../search-types';
import type { EntryType, Runtime } from '../types';
import { ContentScan } from './content-scan';
import { packNames } from './name-list';
import { filesToSearch, namesMatching } from './run-search';
import { TOOL_WALK, walkAsync, type AsyncTreeSource } from './tree-walk';

/** Files read at once while searching contents. */
const READ_WINDOW = 64;

export interface AsyncSearchSource extends AsyncTreeSource {
  /** The type of what `path` leads to after following symlinks, or null when nothing is there. */
  typeOf(path: string): Promise<EntryType | null>;
  /** Each file's bytes, or null for one that is not a readable file. */
  readBytes(files: string[]): Promise<(Uint8Array | null)[]>;
}

/** Answers `request`, whose path is already absolute. Throws when the path is missing or the pattern invalid. */
export async function runSearchAsync(request: SearchRequest, source: AsyncSearchSource): Promise<SearchResult> {
  const type = await source.typeOf(request.path);
  if (type === null) throw new Error(`ENOENT: no such file or directory: ${request.path}`);
  if (request.kind === 'names') {
    if (type !== 'dir') throw new Error(`ENOTDIR: ${request.path} is not a directory.`);
    return packNames(namesMatching(request.path, request.glob, await walkAsync(request.path, TOOL_WALK, source)));
  }
  const scan = new ContentScan(request);
  const files = type === 'dir' ? filesToSearch(request.path, request.glob, await walkAsync(request.path, TOOL_WALK, source)) : [request.path];
  for (let start = 0; start < files.length && !scan.done; start += READ_WINDOW) {
    const window = files.slice(start, start + READ_WINDOW);
    const contents = await source.readBytes(window);
    window.forEach((path, i) => scan.add(path, contents[i]));
  }
  return scan.result();
}

/** A search source over any Runtime's own methods (for runtimes without a faster way in). */
export function runtimeSearchSource(runtime: Runtime): AsyncSearchSource {
  const readText = async (file: string): Promise<string | null> => {
    try {
      if ((await runtime.stat(file))?.type !== 'file') return null;
      return new TextDecoder().decode(await runtime.readFile(file));
    } catch {
      return null;
    }
  };
  return {
    typeOf: async (path) => (await runtime.stat(path))?.type ?? null,
    list: (folders) => Promise.all(folders.map((folder) => runtime.readdir(folder).catch(() => null))),
    readTexts: (files) => Promise.all(files.map(readText)),
    readBytes: (files) => Promise.all(files.map((file) => runtime.readFile(file).catch(() => null))),
  };
}
