// Cuts text that goes back to the model to at most 2000 lines and 50 KB (UTF-8 bytes), keeping whole lines and
// whole characters, and reports what was cut so each tool can tell the model how to get the rest.
import { utf8Length, utf8Suffix } from './utf8';

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  truncatedBy: 'lines' | 'bytes' | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** Head only: the first line alone is over the byte limit, so nothing was shown. */
  firstLineExceedsLimit: boolean;
  /** Tail only: the last line alone was over the byte limit, so only its end is shown. */
  lastLinePartial: boolean;
  maxLines: number;
  maxBytes: number;
}

/** Number of lines in `text`; a final newline ends the last line rather than starting an empty one. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  let at = text.indexOf('\n');
  while (at !== -1) {
    count++;
    at = text.indexOf('\n', at + 1);
  }
  return text.endsWith('\n') ? count : count + 1;
}

/** Keeps the beginning of `text`: as many whole lines as fit both limits. */
export function truncateHead(text: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalLines = countLines(text);
  const totalBytes = utf8Length(text);
  const base = { totalLines, totalBytes, maxLines, maxBytes, lastLinePartial: false };
  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return { ...base, content: text, truncated: false, truncatedBy: null, outputLines: totalLines,
      outputBytes: totalBytes, firstLineExceedsLimit: false };
  }

  let outputLines = 0;
  let outputBytes = 0;
  let keptEnd = 0;
  let truncatedBy: 'lines' | 'bytes' = 'lines';
  let start = 0;
  while (start < text.length) {
    if (outputLines === maxLines) break;
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const lineBytes = utf8Length(text.slice(start, end)) + (outputLines > 0 ? 1 : 0);
    if (outputBytes + lineBytes > maxBytes) {
      truncatedBy = 'bytes';
      break;
    }
    outputBytes += lineBytes;
    outputLines++;
    keptEnd = end;
    start = end + 1;
  }
  return { ...base, content: text.slice(0, keptEnd), truncated: true, truncatedBy, outputLines, outputBytes,
    firstLineExceedsLimit: outputLines === 0 && totalLines > 0 };
}

/** Keeps the end of `text`: as many whole lines as fit; a single last line over the byte limit keeps its end. */
export function truncateTail(text: string, options: TruncationOptions = {}): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalLines = countLines(text);
  const totalBytes = utf8Length(text);
  const base = { totalLines, totalBytes, maxLines, maxBytes, firstLineExceedsLimit: false };
  if (totalLines <= maxLines && totalBytes <= maxBytes) {
    return { ...base, content: text, truncated: false, truncatedBy: null, outputLines: totalLines,
      outputBytes: totalBytes, lastLinePartial: false };
  }

  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let outputLines = 0;
  let outputBytes = 0;
  let keptStart = body.length;
  let truncatedBy: 'lines' | 'bytes' = 'lines';
  let end = body.length;
  while (end >= 0 && keptStart > 0) {
    if (outputLines === maxLines) break;
    const newline = end > 0 ? body.lastIndexOf('\n', end - 1) : -1;
    const start = newline + 1;
    const lineBytes = utf8Length(body.slice(start, end)) + (outputLines > 0 ? 1 : 0);
    if (outputBytes + lineBytes > maxBytes) {
      truncatedBy = 'bytes';
      if (outputLines === 0) {
        const partial = utf8Suffix(body.slice(start, end), maxBytes);
        return { ...base, content: partial, truncated: true, truncatedBy, outputLines: 1,
          outputBytes: utf8Length(partial), lastLinePartial: true };
      }
      break;
    }
    outputBytes += lineBytes;
    outputLines++;
    keptStart = start;
    end = newline;
  }
  return { ...base, content: body.slice(keptStart), truncated: true, truncatedBy, outputLines, outputBytes,
    lastLinePartial: false };
}
