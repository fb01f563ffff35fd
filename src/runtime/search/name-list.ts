// NameSearchResult's packed form: entries as two strings (paths joined by NUL, one type letter each).

import type { NamedEntry, NameSearchResult } from '../search-types';
import type { EntryType } from '../types';

const LETTER: Record<EntryType, string> = { file: 'f', dir: 'd', symlink: 'l' };
const TYPE: Record<string, EntryType> = { f: 'file', d: 'dir', l: 'symlink' };

/** Packs `entries` (in order) into a result. */
export function packNames(entries: readonly NamedEntry[]): NameSearchResult {
  let types = '';
  for (const entry of entries) types += LETTER[entry.type];
  return { kind: 'names', paths: entries.map((entry) => entry.path).join('\0'), types };
}

/** The entries of a packed result, in order; throws on a damaged one. */
export function unpackNames(result: NameSearchResult): NamedEntry[] {
  if (result.types === '') return [];
  const paths = result.paths.split('\0');
  if (paths.length !== result.types.length) throw new Error('The search result is damaged: paths and types do not pair up.');
  return paths.map((path, i) => {
    const type = TYPE[result.types[i]];
    if (type === undefined) throw new Error(`The search result is damaged: unknown entry type "${result.types[i]}".`);
    return { path, type };
  });
}
