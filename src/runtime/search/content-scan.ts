// The grep tool's search over files handed in one by one, in walk order: which files count as searched, which lines
// match, when the limit stops the search, and which lines come back (matches and their context, cut to length).

import type { ContentSearchRequest, ContentSearchResult, FileMatches, SearchLine } from '../search-types';
import { LineMatcher } from './line-matcher';
import { searchableText } from './text-file';

export class ContentScan {
  private readonly matcher: LineMatcher;
  private readonly files: FileMatches[] = [];
  private filesSearched = 0;
  private matches = 0;
  private limitReached = false;

  /** Throws when the pattern does not compile. */
  constructor(private readonly request: Omit<ContentSearchRequest, 'kind' | 'path' | 'glob'>) {
    this.matcher = new LineMatcher(request.pattern.source, request.pattern.flags);
  }

  /** True once the limit is reached: later files are not needed. */
  get done(): boolean {
    return this.limitReached;
  }

  /** Searches one file's bytes (null: unreadable, skipped). */
  add(path: string, bytes: Uint8Array | null): void {
    if (this.limitReached || bytes === null) return;
    const text = searchableText(bytes);
    if (text === null) return;
    this.filesSearched++;
    if (!this.matcher.anyLine(text)) return;
    const lines = text.split('\n');
    const matched = this.matcher.matchingLines(lines, this.request.limit - this.matches);
    if (matched.length === 0) return;
    this.matches += matched.length;
    this.files.push({ path, matched, lines: this.shownLines(lines, matched), lineCount: lines.length });
    if (this.matches >= this.request.limit) this.limitReached = true;
  }

  result(): ContentSearchResult {
    return { kind: 'content', filesSearched: this.filesSearched, matches: this.matches, limitReached: this.limitReached, files: this.files };
  }

  private shownLines(lines: string[], matched: number[]): SearchLine[] {
    const { context, maxLineChars } = this.request;
    const shown: SearchLine[] = [];
    let next = 0; // the first line not taken yet
    for (const index of matched) {
      const from = Math.max(next, index - context);
      const to = Math.min(lines.length - 1, index + context);
      for (let i = from; i <= to; i++) {
        const line = lines[i].endsWith('\r') ? lines[i].slice(0, -1) : lines[i];
        const cut = line.length > maxLineChars;
        shown.push({ index: i, text: cut ? line.slice(0, maxLineChars) : line, cut });
      }
      next = Math.max(next, to + 1);
    }
    return shown;
  }
}
