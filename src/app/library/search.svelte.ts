// Searching the session list. Titles, models and providers match at once; message text comes from the store's
// index (store/sessions/search.ts), read whole on the first search and brought up to the session list before each search
// after it, so it sees messages appended since and forgets deleted sessions.
export { highlightParts } from './search-highlight';
import { SessionSearchIndex, type MessageHit, type SessionRecord, type SessionStore } from '../../store';

/** A session the search found; `hit` is set when a message matched (the first one). */
export type SessionMatch = { record: SessionRecord; hit?: MessageHit };

/** The search box of the session list and what it finds. */
export class SessionSearch {
  query = $state('');
  /** True while the first search reads every session's messages. */
  indexing = $state(false);
  private hits = $state.raw<{ query: string; bySession: Map<string, MessageHit> }>({ query: '', bySession: new Map() });
  private readonly index: SessionSearchIndex;
  private readonly records: () => readonly SessionRecord[];
  private indexed = false;
  private preparing = false;
  private runs = 0;

  constructor(store: Pick<SessionStore, 'loadSearchTexts'>, records: () => readonly SessionRecord[]) {
    this.index = new SessionSearchIndex((id, fromSeq) => store.loadSearchTexts(id, fromSeq));
    this.records = records;
  }

  /** Sessions matching the query, by title, model or provider or by a message, most recently used first. */
  get results(): SessionMatch[] {
    const records = this.records();
    const query = this.query.trim();
    if (!query) return records.map((record) => ({ record }));
    const lower = query.toLowerCase();
    const hits = this.hits.query === query ? this.hits.bySession : new Map<string, MessageHit>();
    return records.flatMap((record) => {
      const hit = hits.get(record.id);
      const named = `${record.title}\n${record.model}\n${record.provider}`.toLowerCase().includes(lower);
      return named || hit ? [{ record, hit }] : [];
    });
  }

  /** Reads the sessions' messages into the index ahead of the first search (the search box took the focus). */
  async prepare(): Promise<void> {
    if (this.indexed || this.preparing) return;
    this.preparing = true;
    try {
      await this.index.update(this.records());
      this.indexed = true;
    } catch {
      // The first search tries again.
    } finally {
      this.preparing = false;
    }
  }

  /** Searches the messages for the current query (again after the list changed); resolves when its hits are in. */
  async run(): Promise<void> {
    const query = this.query.trim();
    const run = ++this.runs;
    if (!query) {
      this.hits = { query, bySession: new Map() };
      return;
    }
    if (!this.indexed) this.indexing = true;
    try {
      await this.index.update(this.records());
      this.indexed = true;
    } catch {
      // The store could not be read: the search answers from what the index has (titles match regardless).
    } finally {
      if (run === this.runs) this.indexing = false;
    }
    if (run === this.runs) this.hits = { query, bySession: this.index.search(query) };
  }
}
