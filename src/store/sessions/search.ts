// Session search over message text, answered from memory. The first search reads every session's searchable text
// once (search-text.ts); after that the index follows the session list: entries are append-only, so a session whose
// message count grew has only its new entries read, a new session (imported, forked, started in another tab) is
// read whole, and a session no longer listed is dropped. A search is then one case-insensitive substring scan of
// one string per session, without touching IndexedDB or a Blob.

/** A session's messages that matched, as the list shows the first one: its seq and the words around the match. */
export type MessageHit = { seq: number; snippet: Snippet };
/** A match inside its context: `before` + `match` + `after` is what the list shows, whitespace collapsed. */
export type Snippet = { before: string; match: string; after: string };

/** Reads the searchable texts of session `sessionId` from seq `fromSeq` to its end, one per message, in order. */
export type LoadSearchTexts = (sessionId: string, fromSeq: number) => Promise<string[]>;

const SNIPPET_BEFORE = 24;
const SNIPPET_AFTER = 64;
// Between two messages in a session's haystack: no query holds it, so no match spans two messages.
const SEPARATOR = '\u0000';

type Indexed = {
  /** Messages read so far (the session's messageCount when last updated). */
  count: number;
  /** Each message's text as stored (for snippets). */
  texts: string[];
  /** Where each message starts in `haystack`. */
  starts: number[];
  /** Every text lowercased, one position per position of the original, joined by SEPARATOR. */
  haystack: string;
};

/** An in-memory index of the sessions' message text. */
export class SessionSearchIndex {
  private readonly load: LoadSearchTexts;
  private readonly sessions = new Map<string, Indexed>();
  private updating: Promise<void> = Promise.resolve();

  constructor(load: LoadSearchTexts) {
    this.load = load;
  }

  /** Sessions indexed, messages in them, and the characters of searchable text held (twice: as is and lowercased). */
  get size(): { sessions: number; messages: number; characters: number } {
    let messages = 0;
    let characters = 0;
    for (const session of this.sessions.values()) {
      messages += session.count;
      characters += session.haystack.length;
    }
    return { sessions: this.sessions.size, messages, characters };
  }

  /**
   * Brings the index up to `records` (every stored session with its message count), reading only what it does not
   * have. Updates run one at a time, in the order asked.
   */
  update(records: readonly { id: string; messageCount: number }[]): Promise<void> {
    const next = this.updating.then(() => this.catchUp(records));
    this.updating = next.catch(() => undefined);
    return next;
  }

  /** The first message of each indexed session containing `query` (case-insensitive), by session id. */
  search(query: string): Map<string, MessageHit> {
    const hits = new Map<string, MessageHit>();
    const needle = lowerAligned(query.trim());
    if (!needle || needle.includes(SEPARATOR)) return hits;
    for (const [id, session] of this.sessions) {
      const at = session.haystack.indexOf(needle);
      if (at < 0) continue;
      const seq = messageAt(session.starts, at);
      const offset = at - session.starts[seq];
      hits.set(id, { seq, snippet: snippetOf(session.texts[seq], offset, needle.length) });
    }
    return hits;
  }

  private async catchUp(records: readonly { id: string; messageCount: number }[]): Promise<void> {
    const listed = new Set(records.map((r) => r.id));
    for (const id of this.sessions.keys()) if (!listed.has(id)) this.sessions.delete(id);
    for (const record of records) {
      let session = this.sessions.get(record.id);
      // Append-only entries: fewer than indexed means it is not the session that was read; read it again.
      if (session && session.count > record.messageCount) session = undefined;
      if (session && session.count === record.messageCount) continue;
      let texts: string[];
      try {
        texts = await this.load(record.id, session?.count ?? 0);
      } catch {
        // Deleted since it was listed, or unreadable: it is not searchable until the list shows it again.
        this.sessions.delete(record.id);
        continue;
      }
      if (!session) this.sessions.set(record.id, (session = { count: 0, texts: [], starts: [], haystack: '' }));
      append(session, texts);
    }
  }
}

/** Adds the texts of the messages after `session.count` (the update finishes each session in one synchronous step). */
function append(session: Indexed, texts: string[]): void {
  const parts: string[] = [];
  let at = session.haystack.length;
  for (const text of texts) {
    if (session.texts.length > 0) {
      parts.push(SEPARATOR);
      at += SEPARATOR.length;
    }
    session.texts.push(text);
    session.starts.push(at);
    const lower = lowerAligned(text);
    parts.push(lower);
    at += lower.length;
  }
  session.haystack += parts.join('');
  session.count += texts.length;
}

/** The message whose text holds haystack position `at` (the last start at or before it). */
function messageAt(starts: number[], at: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * `text` lowercased with every character keeping its position: the few whose lowercase is longer (İ becomes i and a
 * combining dot) stay as they are, so a match's position in the haystack is its position in the text.
 */
export function lowerAligned(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/** The match with up to SNIPPET_BEFORE and SNIPPET_AFTER characters around it, cut between words where it can be. */
function snippetOf(text: string, offset: number, length: number): Snippet {
  let start = Math.max(0, offset - SNIPPET_BEFORE);
  const space = start > 0 ? text.slice(start, offset).search(/\s/) : -1;
  if (space >= 0) start += space + 1;
  const matchEnd = offset + length;
  let end = Math.min(text.length, matchEnd + SNIPPET_AFTER);
  if (end < text.length) {
    const lastSpace = text.slice(matchEnd, end).search(/\s\S*$/);
    if (lastSpace > 0) end = matchEnd + lastSpace;
  }
  const flat = (s: string) => s.replace(/\s+/g, ' ');
  return {
    before: (start > 0 ? '…' : '') + flat(text.slice(start, offset)).trimStart(),
    match: flat(text.slice(offset, matchEnd)),
    after: flat(text.slice(matchEnd, end)).trimEnd() + (end < text.length ? '…' : ''),
  };
}
