// The searches behind the grep and find tools: Runtime.search where the runtime has it (one round trip, run where the
// files are), else a walk through the runtime's readdir and readFile, one call per folder and file.
import { minimatch } from 'minimatch';
import type { Runtime } from '../runtime/types';
import type { ContentSearchResult, FileMatches, NamedEntry, SearchLine } from '../runtime/search-types';
import { unpackNames } from '../runtime/search/name-list';
import { relativeTo } from './paths';
import { hasNulByte } from './tool-support';
import { decodeUtf8Strict } from './utf8';
import { walkTree } from './walk';

export type GrepQuery = {
  /** Absolute folder or file. */
  root: string;
  isDir: boolean;
  matcher: RegExp;
  glob?: string;
  limit: number;
  context: number;
  maxLineChars: number;
};

/** The lines of the files under `query.root` that match, with context, stopping at the limit. */
export async function grepFiles(runtime: Runtime, query: GrepQuery, signal?: AbortSignal): Promise<ContentSearchResult> {
  if (!runtime.search) return grepByWalking(runtime, query, signal);
  if (signal?.aborted) throw new Error('Search aborted.');
  const result = await runtime.search({
    kind: 'content',
    path: query.root,
    pattern: { source: query.matcher.source, flags: query.matcher.flags },
    glob: query.glob,
    limit: query.limit,
    context: query.context,
    maxLineChars: query.maxLineChars,
  });
  if (signal?.aborted) throw new Error('Search aborted.');
  if (result.kind !== 'content') throw new Error('The runtime answered a content search with a name search.');
  return result;
}

/** The entries under the folder `root` whose path relative to it matches `glob`, in walk order. */
export async function findEntries(runtime: Runtime, root: string, glob: string, signal?: AbortSignal): Promise<NamedEntry[]> {
  if (!runtime.search) return findByWalking(runtime, root, glob, signal);
  if (signal?.aborted) throw new Error('Find aborted.');
  const result = await runtime.search({ kind: 'names', path: root, glob });
  if (signal?.aborted) throw new Error('Find aborted.');
  if (result.kind !== 'names') throw new Error('The runtime answered a name search with a content search.');
  return unpackNames(result);
}

/** True when `relative` matches `glob`: a glob without "/" matches the name at any depth, one with "/" the path. */
export function matchesGlob(relative: string, glob: string): boolean {
  const pattern = glob.startsWith('./') ? glob.slice(2) : glob;
  return minimatch(relative, pattern, { dot: true, matchBase: !pattern.includes('/') });
}

async function grepByWalking(runtime: Runtime, query: GrepQuery, signal?: AbortSignal): Promise<ContentSearchResult> {
  const files = query.isDir ? filesUnder(runtime, query.root, query.glob, signal) : single(query.root);
  const found: FileMatches[] = [];
  let matches = 0;
  let filesSearched = 0;
  let limitReached = false;
  for await (const file of files) {
    if (signal?.aborted) throw new Error('Search aborted.');
    const text = await readText(runtime, file);
    if (text === null) continue;
    filesSearched++;
    const fileLines = text.split('\n');
    const matched = searchLines(fileLines, query.matcher, query.limit - matches);
    if (matched.length === 0) continue;
    matches += matched.length;
    found.push({ path: file, matched, lines: shownLines(fileLines, matched, query), lineCount: fileLines.length });
    if (matches >= query.limit) {
      limitReached = true;
      break;
    }
  }
  return { kind: 'content', filesSearched, matches, limitReached, files: found };
}

async function findByWalking(runtime: Runtime, root: string, glob: string, signal?: AbortSignal): Promise<NamedEntry[]> {
  const found: NamedEntry[] = [];
  for await (const entry of walkTree(runtime, root, signal)) {
    const relative = relativeTo(root, entry.absolute);
    if (!relative || !matchesGlob(relative, glob)) continue;
    found.push({ path: entry.absolute, type: entry.type });
  }
  if (signal?.aborted) throw new Error('Find aborted.');
  return found;
}

async function* filesUnder(runtime: Runtime, root: string, glob: string | undefined, signal?: AbortSignal) {
  for await (const entry of walkTree(runtime, root, signal)) {
    if (entry.type === 'dir') continue;
    if (glob && !matchesGlob(relativeTo(root, entry.absolute) ?? entry.absolute, glob)) continue;
    yield entry.absolute;
  }
}

async function* single(path: string) {
  yield path;
}

async function readText(runtime: Runtime, path: string): Promise<string | null> {
  try {
    const bytes = await runtime.readFile(path);
    return hasNulByte(bytes) ? null : decodeUtf8Strict(bytes);
  } catch {
    return null; // dangling symlinks and unreadable files are skipped
  }
}

function searchLines(lines: string[], matcher: RegExp, max: number): number[] {
  const found: number[] = [];
  for (let i = 0; i < lines.length && found.length < max; i++) {
    if (matcher.test(lines[i])) found.push(i);
  }
  return found;
}

/** The matching lines and their context, without line endings, cut at maxLineChars. */
function shownLines(lines: string[], matched: number[], query: GrepQuery): SearchLine[] {
  const indices = new Set<number>();
  for (const index of matched) {
    for (let i = Math.max(0, index - query.context); i <= Math.min(lines.length - 1, index + query.context); i++) indices.add(i);
  }
  return [...indices].sort((a, b) => a - b).map((index) => {
    const text = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    const cut = text.length > query.maxLineChars;
    return { index, text: cut ? text.slice(0, query.maxLineChars) : text, cut };
  });
}
