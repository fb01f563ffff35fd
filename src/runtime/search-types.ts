// The runtime-side search (Runtime.search): a walk with the tools' ignore rules plus matching, run where the files
// are and answered in one round trip. Requests and results are plain data, so they cross a worker boundary as is.

import type { EntryType } from './entry-type';

/** Matching lines of the files under (or at) `path`, the grep tool's search. */
export type ContentSearchRequest = {
  kind: 'content';
  /**
   * Folder or file, absolute or workdir-relative. A folder is walked depth first in name order, skipping
   * node_modules, .git and whatever the .gitignore files along the way (and above it) exclude; a file is searched as
   * given. Binary files (a NUL byte in the first 8 KB) and files that are not valid UTF-8 are skipped.
   */
  path: string;
  /** A JavaScript regular expression, as RegExp.prototype.source and .flags give it; it is tested on each line. */
  pattern: { source: string; flags: string };
  /** Only files whose path relative to `path` matches this glob (see search/glob.ts). */
  glob?: string;
  /** The search stops once this many lines have matched, over all files. */
  limit: number;
  /** Lines of context to return before and after each match. */
  context: number;
  /** Lines longer than this many UTF-16 units come back cut to it (line.cut). */
  maxLineChars: number;
};

/** Files and folders under `path` whose path relative to it matches `glob`, the find tool's search. */
export type NameSearchRequest = {
  kind: 'names';
  /** A folder, absolute or workdir-relative, walked with the same rules as ContentSearchRequest.path. */
  path: string;
  glob: string;
};

export type SearchRequest = ContentSearchRequest | NameSearchRequest;

/** One line of a file with a match: a matching line or a context line. */
export type SearchLine = {
  /** 0-based line number. */
  index: number;
  /** The line without its line ending (a trailing \r is dropped too), at most maxLineChars long. */
  text: string;
  /** True when the line was longer than maxLineChars. */
  cut: boolean;
};

export type FileMatches = {
  /** Absolute path, as walked (symlinks not resolved). */
  path: string;
  /** 0-based numbers of the matching lines, ascending. */
  matched: number[];
  /** The matching lines and their context lines, ascending. */
  lines: SearchLine[];
  /** The file's number of lines (text split at \n). */
  lineCount: number;
};

export type ContentSearchResult = {
  kind: 'content';
  /** Text files read (binary and non-UTF-8 files not counted). */
  filesSearched: number;
  matches: number;
  /** True when the search stopped at `limit`. */
  limitReached: boolean;
  /** Files with at least one match, in walk order. */
  files: FileMatches[];
};

/**
 * The matching entries in walk order, packed: one string crosses a worker boundary as one copy where 20,000 small
 * objects do not (see packNames and unpackNames in search/name-list.ts).
 */
export type NameSearchResult = {
  kind: 'names';
  /** Absolute paths joined by NUL characters (no path holds one). */
  paths: string;
  /** One letter per entry, in the same order: 'f' file, 'd' folder, 'l' symlink. */
  types: string;
};

/** One entry of a NameSearchResult, unpacked. */
export type NamedEntry = { path: string; type: EntryType };

export type SearchResult = ContentSearchResult | NameSearchResult;
