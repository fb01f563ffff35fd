// What session search looks through in one stored message: the conversation as a person reads it, that is the
// text of user messages and replies, and the command, path or pattern of each tool call (a task call's description
// and prompt). Thinking, tool output and
// file contents are left out: they are the bulk of a transcript, and mostly code or logs rather than what the
// session was about. A text kept in Blobs (entry-codec.ts) is read once, up to its first INDEXED_CHARS.
import { lightMessageOf, type BlobTextsEntry } from './entry-codec';

/** The most of one text that search looks through (a text up to the Blob threshold is searched whole). */
export const INDEXED_CHARS = 256 * 1024;

type Path = (string | number)[];

/** The searchable text of a stored entry (an entry-codec value): its parts joined by newlines. */
export async function searchTextOf(stored: unknown): Promise<string> {
  const message = lightMessageOf(stored);
  const blobs = blobTextsOf(stored);
  const parts: string[] = [];
  for (const { path, text } of searchedFields(message)) {
    const inBlobs = text === '' ? blobs.get(pathKey(path)) : undefined;
    const full = inBlobs ? await readStart(inBlobs) : text;
    if (full !== '') parts.push(full.length > INDEXED_CHARS ? full.slice(0, INDEXED_CHARS) : full);
  }
  return parts.join('\n');
}

/** The fields of a message that search looks through, with their paths in the message. */
function searchedFields(message: unknown): { path: Path; text: string }[] {
  const m = message as { role?: unknown; content?: unknown } | null;
  if (typeof m !== 'object' || m === null || (m.role !== 'user' && m.role !== 'assistant')) return [];
  if (typeof m.content === 'string') return [{ path: ['content'], text: m.content }];
  if (!Array.isArray(m.content)) return [];
  const fields: { path: Path; text: string }[] = [];
  m.content.forEach((block: unknown, index) => {
    const b = block as { type?: unknown; text?: unknown; arguments?: unknown } | null;
    if (b?.type === 'text' && typeof b.text === 'string') fields.push({ path: ['content', index, 'text'], text: b.text });
    if (b?.type === 'toolCall' && typeof b.arguments === 'object' && b.arguments !== null) {
      const args = b.arguments as Record<string, unknown>;
      // A subagent task's description and prompt say what the session asked of it.
      for (const key of ['command', 'path', 'pattern', 'description', 'prompt']) {
        if (typeof args[key] === 'string') fields.push({ path: ['content', index, 'arguments', key], text: args[key] });
      }
    }
  });
  return fields;
}

function blobTextsOf(stored: unknown): Map<string, Blob[]> {
  const texts = (stored as Partial<BlobTextsEntry> | null)?.texts;
  const byPath = new Map<string, Blob[]>();
  if ((stored as Partial<BlobTextsEntry> | null)?.conchEntry !== 'texts-in-blobs' || !Array.isArray(texts)) return byPath;
  for (const { path, blobs } of texts) byPath.set(pathKey(path), blobs);
  return byPath;
}

const pathKey = (path: Path) => path.join('/');

/** The first INDEXED_CHARS of a text kept in Blobs, reading only as much of the first Blob as that takes. */
async function readStart(blobs: Blob[]): Promise<string> {
  const first = blobs[0];
  if (!first) return '';
  // Up to 3 bytes per UTF-16 unit; a character cut at the end decodes as U+FFFD, which no search matches anyway.
  const text = await first.slice(0, INDEXED_CHARS * 3).text();
  return text.slice(0, INDEXED_CHARS);
}
