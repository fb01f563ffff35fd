// How a message is kept in the `entries` store. Most are kept as they are. A message holding a text of more than
// LARGE_TEXT_CHARS characters (a pasted log, an imported session's megabytes) keeps those texts in Blobs instead:
// IndexedDB hands a Blob back as a reference and its text is read asynchronously, whereas a 50 MB string inside
// the record is deserialized in one go on the page's thread when the record is read (seconds, in Chromium). Each
// text is cut into Blobs of BLOB_CHARS, since turning one Blob into a string is itself one task of the page.
import type { Message } from '../../ai/types';

/** Texts longer than this are kept in Blobs. */
export const LARGE_TEXT_CHARS = 256 * 1024;
/** Characters per Blob: read back in well under 50 ms. */
export const BLOB_CHARS = 2 * 1024 * 1024;

type Path = (string | number)[];
/** The stored form of a message whose large texts were moved into Blobs (each replaced by '' in `message`). */
export type BlobTextsEntry = { conchEntry: 'texts-in-blobs'; message: unknown; texts: { path: Path; blobs: Blob[] }[] };

/** The value to store for `message`: itself, or a BlobTextsEntry when it holds large texts. Never changes `message`. */
export function encodeEntry(message: Message | unknown): unknown {
  const texts: BlobTextsEntry['texts'] = [];
  const copy = withoutLargeTexts(message, [], texts);
  return texts.length === 0 ? message : ({ conchEntry: 'texts-in-blobs', message: copy, texts } satisfies BlobTextsEntry);
}

/** The message back from a stored value just read (it is filled in place); anything else is returned unchanged. */
export async function decodeEntry(value: unknown): Promise<unknown> {
  if (!isBlobTextsEntry(value)) return value;
  for (const { path, blobs } of value.texts) {
    // One Blob at a time: reads started together may all complete in one task of the page.
    const parts: string[] = [];
    for (const blob of blobs) parts.push(await blob.text());
    setAt(value.message, path, parts.join(''));
  }
  return value.message;
}

/** The message of a stored value without reading its Blobs: its large texts are '' (for counting, not for showing). */
export function lightMessageOf(stored: unknown): unknown {
  return isBlobTextsEntry(stored) ? stored.message : stored;
}

function isBlobTextsEntry(value: unknown): value is BlobTextsEntry {
  const v = value as Partial<BlobTextsEntry> | null;
  return typeof v === 'object' && v !== null && v.conchEntry === 'texts-in-blobs' && Array.isArray(v.texts);
}

/** A copy of `value` sharing everything but the objects on the way to a large text, which becomes ''. */
function withoutLargeTexts(value: unknown, path: Path, texts: BlobTextsEntry['texts']): unknown {
  if (typeof value === 'string') {
    if (value.length <= LARGE_TEXT_CHARS) return value;
    texts.push({ path, blobs: pieces(value).map((piece) => new Blob([piece], { type: 'text/plain;charset=utf-8' })) });
    return '';
  }
  if (typeof value !== 'object' || value === null) return value;
  const found = texts.length;
  const copy: unknown = Array.isArray(value)
    ? value.map((item, i) => withoutLargeTexts(item, [...path, i], texts))
    : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutLargeTexts(item, [...path, key], texts)]));
  return texts.length === found ? value : copy;
}

/** `text` in pieces of at most BLOB_CHARS, never cutting a surrogate pair (a lone half would not survive UTF-8). */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + BLOB_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

function setAt(target: unknown, path: Path, text: string): void {
  let node = target as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = text;
}
