// Runtime.search over a file system read synchronously (the embedded runtime's in-memory one): the walk, the glob and
// the matching, all in one call.

import type { SearchRequest, SearchResult } from '../search-types';
import type { EntryType } from '../types';
import { ContentScan } from './content-scan';
import { packNames } from './name-list';
import { compileGlob } from './glob';
import { TOOL_WALK, walkSync, type SyncTreeSource, type WalkedEntry } from './tree-walk';

export interface SearchSource extends SyncTreeSource {
  /** The type of what `path` leads to after following symlinks, or null when nothing is there. */
  typeOf(path: string): EntryType | null;
  /** A file's bytes (symlinks followed), or null when it is not a readable file. */
  readBytes(path: string): Uint8Array | null;
}

/** Answers `request`, whose path is already absolute. Throws when the path is missing or the pattern invalid. */
export function runSearch(request: SearchRequest, source: SearchSource): SearchResult {
  const type = source.typeOf(request.path);
  if (type === null) throw new Error(`ENOENT: no such file or directory: ${request.path}`);
  if (request.kind === 'names') {
    if (type !== 'dir') throw new Error(`ENOTDIR: ${request.path} is not a directory.`);
    return packNames(namesMatching(request.path, request.glob, walkSync(request.path, TOOL_WALK, source)));
  }
  const scan = new ContentScan(request);
  for (const path of type === 'dir' ? filesToSearch(request.path, request.glob, walkSync(request.path, TOOL_WALK, source)) : [request.path]) {
    scan.add(path, source.readBytes(path));
    if (scan.done) break;
  }
  return scan.result();
}

/** The walked files (not folders) under `root` whose path relative to it matches `glob`. */
export function filesToSearch(root: string, glob: string | undefined, walked: WalkedEntry[]): string[] {
  const matches = glob === undefined ? undefined : compileGlob(glob);
  const files: string[] = [];
  for (const entry of walked) {
    if (entry.type === 'dir') continue;
    if (matches && !matches(relativeInside(root, entry.path))) continue;
    files.push(entry.path);
  }
  return files;
}

/** The walked entries under `root` whose path relative to it matches `glob`. */
export function namesMatching(root: string, glob: string, walked: WalkedEntry[]): WalkedEntry[] {
  const matches = compileGlob(glob);
  return walked.filter((entry) => matches(relativeInside(root, entry.path)));
}

function relativeInside(root: string, path: string): string {
  return path.slice(root === '/' ? 1 : root.length + 1);
}
