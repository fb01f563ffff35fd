// IndexedDB persistence of sessions (DESIGN.md "Storage"). Key layout:
//   sessions:  <id>                          small SessionRecord
//   entries:   <id>/<seq padded to 8>        one Message per record (its large texts in Blobs: entry-codec.ts);
//                                            appending never rewrites earlier ones
//              <id>/compaction/<n padded>    one CompactionEntry per record, in the order made
//              <id>/draft                    the reply being streamed (overwritten; cleared when it completes)
//   snapshots: <id>/latest, <id>/checkpoint/<seq padded to 8>, <baselineId>/baseline   workspace zips
//   settings:  "settings"                    the settings object (API keys stay in this store)
import { get, set } from 'idb-keyval';
import { messageText, titleFromPrompt } from '../ai/messages';
import type { AssistantMessage, CompactionEntry, Message, Usage, UserMessage } from '../ai/types';
import { findCompactionProblem } from './compaction-schema';
import { mapStorageError, openDatabase, requestResult } from './db';
import { decodeEntry, encodeEntry } from './entry-codec';
import { findMessageProblem } from './message-schema';
import { searchTextOf } from './search-text';
import { missingTrailingResults } from './repair-transcript';
import type {
  ForkResult,
  ImportedFrom,
  NewSession,
  SessionChange,
  SessionPatch,
  SessionRecord,
  SessionStore,
  SnapshotRef,
  TokenTotals,
} from './types';

export type SessionStoreOptions = {
  /** Prefix of the database name, so tests and previews stay apart. */
  prefix?: string;
  /** Told after every committed change to the session list (wire it to openSessionEvents().publish). */
  onChange?: (change: SessionChange) => void;
  indexedDB?: IDBFactory;
};

const SETTINGS_KEY = 'settings';

export const pad = (seq: number): string => String(seq).padStart(8, '0');
export const entryKey = (id: string, seq: number): string => `${id}/${pad(seq)}`;
const checkpointKey = (id: string, seq: number): string => `${id}/checkpoint/${pad(seq)}`;
const compactionKey = (id: string, n: number): string => `${id}/compaction/${pad(n)}`;
const draftKey = (id: string): string => `${id}/draft`;
/** All keys starting with `prefix` ('/' sorts just below '0', so ids never straddle the range). */
const prefixRange = (prefix: string): IDBKeyRange => IDBKeyRange.bound(prefix, `${prefix}\uffff`);
/** A session's message entries only (their keys are digits; compactions and the draft sort after them). */
const messageRange = (id: string): IDBKeyRange => IDBKeyRange.bound(`${id}/0`, `${id}/9\uffff`);

/** Opens the session store (lazily connecting to IndexedDB on first use). */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const db = openDatabase(options.prefix, options.indexedDB);
  const settingsStore = db.keyval('settings');
  const notify = (change: SessionChange) => options.onChange?.(change);

  async function readSession(stores: { sessions: IDBObjectStore }, id: string): Promise<SessionRecord> {
    const record = normalizeSession(await requestResult(stores.sessions.get(id)));
    if (!record) throw new Error(`Session ${id} does not exist (it may have been deleted in another tab).`);
    return record;
  }

  async function dropBaselineIfUnused(stores: { sessions: IDBObjectStore; snapshots: IDBObjectStore }, baselineId?: string) {
    if (!baselineId) return;
    const all = (await requestResult(stores.sessions.getAll())) as unknown[];
    if (all.some((s) => normalizeSession(s)?.baselineId === baselineId)) return;
    stores.snapshots.delete(`${baselineId}/baseline`);
  }

  async function snapshotKey(stores: { sessions: IDBObjectStore }, id: string, ref: SnapshotRef): Promise<string | undefined> {
    if (ref === 'latest') return `${id}/latest`;
    if (ref === 'baseline') {
      const session = await readSession(stores, id);
      return session.baselineId ? `${session.baselineId}/baseline` : undefined;
    }
    return checkpointKey(id, ref.checkpoint);
  }

  const store: SessionStore = {
    async getSettings() {
      try {
        return await get<unknown>(SETTINGS_KEY, settingsStore);
      } catch (error) {
        throw mapStorageError(error, 'the settings');
      }
    },

    async setSettings(settings) {
      try {
        await set(SETTINGS_KEY, settings, settingsStore);
      } catch (error) {
        throw mapStorageError(error, 'the settings');
      }
    },

    async createSession(init = {}) {
      const now = Date.now();
      const session: SessionRecord = {
        id: crypto.randomUUID(),
        title: init.title ?? '',
        createdAt: now,
        updatedAt: now,
        model: init.model ?? '',
        provider: init.provider ?? '',
        messageCount: 0,
        cost: 0,
        tokens: zeroTokens(),
        checkpoints: [],
      };
      await db.transact(['sessions'], 'readwrite', 'the new session', async (s) => {
        s.sessions.put(session, session.id);
      });
      notify({ type: 'created', id: session.id });
      return session;
    },

    async listSessions() {
      const all = await db.transact(['sessions'], 'readonly', 'the session list', (s) => requestResult(s.sessions.getAll()));
      return (all as unknown[])
        .map(normalizeSession)
        .filter((s): s is SessionRecord => s !== null)
        .sort((a, b) => b.updatedAt - a.updatedAt);
    },

    async getSession(id) {
      const value = await db.transact(['sessions'], 'readonly', 'the session', (s) => requestResult(s.sessions.get(id)));
      return normalizeSession(value) ?? undefined;
    },

    renameSession(id, title) {
      return store.updateSession(id, { title: title.trim().slice(0, 200) });
    },

    async updateSession(id, patch) {
      const updated = await db.transact(['sessions'], 'readwrite', 'the session', async (s) => {
        const next = { ...(await readSession(s, id)), ...patch, updatedAt: Date.now() };
        s.sessions.put(next, id);
        return next;
      });
      notify({ type: 'updated', id });
      return updated;
    },

    async deleteSession(id) {
      await db.transact(['sessions', 'entries', 'snapshots'], 'readwrite', 'the deletion', async (s) => {
        const session = normalizeSession(await requestResult(s.sessions.get(id)));
        s.sessions.delete(id);
        s.entries.delete(prefixRange(`${id}/`));
        s.snapshots.delete(`${id}/latest`);
        s.snapshots.delete(prefixRange(`${id}/checkpoint/`));
        await dropBaselineIfUnused(s, session?.baselineId);
      });
      notify({ type: 'deleted', id });
    },

    async appendEntry(sessionId, message) {
      const seq = await db.transact(['sessions', 'entries'], 'readwrite', 'the latest message', async (s) => {
        const session = await readSession(s, sessionId);
        const seq = session.messageCount;
        // One transaction: the entry and the session record's count commit together or not at all.
        s.entries.put(encodeEntry(message), entryKey(sessionId, seq));
        s.sessions.put(accountFor(session, message, seq), sessionId);
        return seq;
      });
      notify({ type: 'updated', id: sessionId });
      return seq;
    },

    async loadEntries(sessionId) {
      const values = await db.transact(['sessions', 'entries'], 'readonly', 'the transcript', async (s) => {
        const session = await readSession(s, sessionId);
        return requestResult(s.entries.getAll(messageRange(sessionId), session.messageCount));
      });
      // Large texts come back from their Blobs after the transaction (reading a Blob is not a request of it).
      const decoded = await Promise.all((values as unknown[]).map(decodeEntry));
      return decoded.map((value, seq) => {
        const problem = findMessageProblem(value);
        if (problem) {
          throw new Error(
            `Stored message ${seq} of session ${sessionId} is damaged (${problem.path || 'message'}: ${problem.problem}). ` +
              'Export the session to keep what is readable, or delete it.',
          );
        }
        return value as Message;
      });
    },

    async loadSearchTexts(sessionId, fromSeq) {
      const values = await db.transact(['sessions', 'entries'], 'readonly', 'the transcript', async (s) => {
        const session = await readSession(s, sessionId);
        if (fromSeq >= session.messageCount) return [];
        const range = IDBKeyRange.bound(entryKey(sessionId, fromSeq), `${sessionId}/9\uffff`);
        return requestResult(s.entries.getAll(range, session.messageCount - fromSeq));
      });
      // Blobs are read after the transaction, as loadEntries does.
      const texts: string[] = [];
      for (const value of values as unknown[]) texts.push(await searchTextOf(value));
      return texts;
    },

    async recoverSession(sessionId) {
      const messages = await store.loadEntries(sessionId);
      const missing = missingTrailingResults(messages);
      for (const result of missing) {
        await store.appendEntry(sessionId, result);
        messages.push(result);
      }
      return messages;
    },

    async appendCompaction(sessionId, compaction) {
      await db.transact(['sessions', 'entries'], 'readwrite', 'the compaction', async (s) => {
        const session = await readSession(s, sessionId);
        const problem = findCompactionProblem(compaction, session.messageCount);
        if (problem) throw new Error(`This compaction cannot be stored: ${problem.path || 'compaction'} ${problem.problem}.`);
        const n = await requestResult(s.entries.count(prefixRange(`${sessionId}/compaction/`)));
        s.entries.put(compaction, compactionKey(sessionId, n));
        s.sessions.put({ ...accountUsage(session, compaction.usage), updatedAt: Date.now() }, sessionId);
      });
      notify({ type: 'updated', id: sessionId });
    },

    async loadCompactions(sessionId) {
      const { values, messageCount } = await db.transact(['sessions', 'entries'], 'readonly', 'the compactions', async (s) => {
        const session = await readSession(s, sessionId);
        const values = (await requestResult(s.entries.getAll(prefixRange(`${sessionId}/compaction/`)))) as unknown[];
        return { values, messageCount: session.messageCount };
      });
      return values.map((value, n) => {
        const problem = findCompactionProblem(value, messageCount);
        if (problem) {
          throw new Error(
            `Stored compaction ${n} of session ${sessionId} is damaged (${problem.path || 'compaction'}: ${problem.problem}). ` +
              'Export the session to keep what is readable, or delete it.',
          );
        }
        return value as CompactionEntry;
      });
    },

    async saveDraft(sessionId, draft) {
      await db.transact(['sessions', 'entries'], 'readwrite', 'the reply being written', async (s) => {
        await readSession(s, sessionId); // a session deleted in another tab gets no orphaned draft
        s.entries.put(draft, draftKey(sessionId));
      });
    },

    async loadDraft(sessionId) {
      const value = await db.transact(['entries'], 'readonly', 'the reply being written', (s) =>
        requestResult(s.entries.get(draftKey(sessionId))),
      );
      if (value === undefined) return undefined;
      const problem = findMessageProblem(value);
      const role = (value as { role?: unknown } | null)?.role;
      if (problem || role !== 'assistant') {
        const why = problem ? `${problem.path || 'message'}: ${problem.problem}` : 'it is not a reply';
        throw new Error(`The reply saved while streaming in session ${sessionId} is damaged (${why}); it cannot be shown.`);
      }
      return value as AssistantMessage;
    },

    async clearDraft(sessionId) {
      await db.transact(['entries'], 'readwrite', 'the reply being written', async (s) => {
        s.entries.delete(draftKey(sessionId));
      });
    },

    async importSession(seed) {
      const now = Date.now();
      const id = crypto.randomUUID();
      let session: SessionRecord = {
        id,
        title: seed.title,
        createdAt: seed.createdAt ?? now,
        updatedAt: now,
        model: seed.model,
        provider: seed.provider,
        messageCount: 0,
        cost: 0,
        tokens: zeroTokens(),
        checkpoints: [...(seed.checkpoints?.keys() ?? [])].sort((a, b) => a - b),
        baselineId: seed.baseline ? id : undefined,
        importedAt: now,
        importedFrom: seed.importedFrom,
      };
      await db.transact(['sessions', 'entries', 'snapshots'], 'readwrite', 'the imported session', async (s) => {
        for (const [seq, message] of seed.messages.entries()) {
          s.entries.put(seed.storedEntries?.[seq] ?? encodeEntry(message), entryKey(id, seq));
          session = accountFor(session, message, seq);
        }
        for (const [n, compaction] of (seed.compactions ?? []).entries()) {
          s.entries.put(compaction, compactionKey(id, n));
          session = accountUsage(session, compaction.usage);
        }
        if (seed.latest) s.snapshots.put(seed.latest, `${id}/latest`);
        if (seed.baseline) s.snapshots.put(seed.baseline, `${id}/baseline`);
        for (const [seq, zip] of seed.checkpoints ?? []) s.snapshots.put(zip, checkpointKey(id, seq));
        s.sessions.put({ ...session, model: seed.model || session.model, provider: seed.provider || session.provider, updatedAt: now }, id);
      });
      notify({ type: 'created', id });
      return (await store.getSession(id)) as SessionRecord;
    },

    async saveSnapshot(sessionId, ref, zip) {
      const what = ref === 'latest' ? 'the workspace snapshot' : ref === 'baseline' ? 'the imported baseline' : 'the checkpoint';
      await db.transact(['sessions', 'snapshots'], 'readwrite', what, async (s) => {
        const session = await readSession(s, sessionId);
        if (ref === 'latest') {
          s.snapshots.put(zip, `${sessionId}/latest`);
          return;
        }
        if (ref === 'baseline') {
          // A fork shares its parent's baseline until it gets its own: copy on write.
          s.snapshots.put(zip, `${sessionId}/baseline`);
          const previous = session.baselineId;
          s.sessions.put({ ...session, baselineId: sessionId }, sessionId);
          if (previous !== sessionId) await dropBaselineIfUnused(s, previous);
          return;
        }
        s.snapshots.put(zip, checkpointKey(sessionId, ref.checkpoint));
        if (!session.checkpoints.includes(ref.checkpoint)) {
          const checkpoints = [...session.checkpoints, ref.checkpoint].sort((a, b) => a - b);
          s.sessions.put({ ...session, checkpoints }, sessionId);
        }
      });
    },

    async loadSnapshot(sessionId, ref) {
      const value = await db.transact(['sessions', 'snapshots'], 'readonly', 'the snapshot', async (s) => {
        const key = await snapshotKey(s, sessionId, ref);
        return key === undefined ? undefined : requestResult(s.snapshots.get(key));
      });
      return value instanceof Uint8Array ? value : undefined;
    },

    async listCheckpoints(sessionId) {
      const session = await store.getSession(sessionId);
      return session ? [...session.checkpoints] : [];
    },

    async forkSession(sessionId, atSeq) {
      const result = await db.transact(['sessions', 'entries', 'snapshots'], 'readwrite', 'the fork', async (s): Promise<ForkResult> => {
        const parent = await readSession(s, sessionId);
        const values = (await requestResult(s.entries.getAll(messageRange(sessionId), atSeq + 1))) as unknown[];
        const prompt = values[atSeq];
        if (atSeq >= parent.messageCount || (prompt as Message | undefined)?.role !== 'user') {
          throw new Error(`Message ${atSeq} of this session is not a user message; a fork starts at a user message.`);
        }
        const now = Date.now();
        let fork: SessionRecord = {
          ...parent,
          id: crypto.randomUUID(),
          title: `${parent.title || 'Untitled'} (fork)`.slice(0, 200),
          createdAt: now,
          updatedAt: now,
          messageCount: 0,
          cost: 0,
          tokens: zeroTokens(),
          checkpoints: parent.checkpoints.filter((seq) => seq < atSeq),
          forkedFrom: { sessionId, seq: atSeq },
          importedAt: undefined,
          importedFrom: undefined,
        };
        for (const [seq, message] of values.slice(0, atSeq).entries()) {
          s.entries.put(message, entryKey(fork.id, seq));
          fork = accountFor(fork, message as Message, seq);
        }
        // Compactions made after the fork point summarise messages the fork does not have.
        const compactions = (await requestResult(s.entries.getAll(prefixRange(`${sessionId}/compaction/`)))) as CompactionEntry[];
        for (const [n, compaction] of compactions.filter((c) => c.atSeq <= atSeq).entries()) {
          s.entries.put(compaction, compactionKey(fork.id, n));
          fork = accountUsage(fork, compaction.usage);
        }
        fork.updatedAt = now;
        for (const seq of fork.checkpoints) {
          const zip = await requestResult(s.snapshots.get(checkpointKey(sessionId, seq)));
          if (zip !== undefined) s.snapshots.put(zip, checkpointKey(fork.id, seq));
        }
        const atCheckpoint = await requestResult(s.snapshots.get(checkpointKey(sessionId, atSeq)));
        const baseline = parent.baselineId ? await requestResult(s.snapshots.get(`${parent.baselineId}/baseline`)) : undefined;
        const workspace = atCheckpoint ?? baseline;
        if (workspace !== undefined) s.snapshots.put(workspace, `${fork.id}/latest`);
        s.sessions.put(fork, fork.id);
        return {
          session: fork,
          prompt: prompt as UserMessage,
          workspace: atCheckpoint !== undefined ? 'checkpoint' : baseline !== undefined ? 'baseline' : 'none',
        };
      });
      notify({ type: 'created', id: result.session.id });
      return result;
    },

    close() {
      db.close();
    },
  };
  return store;
}

/** The session record after `message` (at `seq`) was appended: counts, cost, tokens, model, title. */
function accountFor(session: SessionRecord, message: Message, seq: number): SessionRecord {
  let next: SessionRecord = { ...session, messageCount: seq + 1, updatedAt: Date.now() };
  if (message.role === 'assistant') {
    next = accountUsage(next, message.usage);
    if (message.model) next.model = message.model;
    if (message.provider) next.provider = message.provider;
  } else if (message.role === 'user' && !session.title) {
    next.title = titleFrom(message);
  }
  return next;
}

/** The session record with `usage` (a reply's, or a compaction's summary calls') added to its cost and tokens. */
function accountUsage(session: SessionRecord, usage: Usage | undefined): SessionRecord {
  if (!usage) return session;
  return {
    ...session,
    cost: session.cost + (Number.isFinite(usage.cost.total) ? usage.cost.total : 0),
    tokens: {
      input: session.tokens.input + usage.input,
      output: session.tokens.output + usage.output,
      cacheRead: session.tokens.cacheRead + usage.cacheRead,
      cacheWrite: session.tokens.cacheWrite + usage.cacheWrite,
    },
  };
}

/** A title from the first prompt (the one rule the whole app uses). */
export function titleFrom(message: UserMessage): string {
  return titleFromPrompt(messageText(message, { separator: ' ' }));
}

function zeroTokens(): TokenTotals {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

/** Reads a stored session record defensively: older or damaged records get defaults instead of crashing the list. */
function normalizeSession(value: unknown): SessionRecord | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Partial<SessionRecord>;
  if (typeof v.id !== 'string') return null;
  const num = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : 0);
  const tokens = (typeof v.tokens === 'object' && v.tokens !== null ? v.tokens : {}) as Partial<TokenTotals>;
  return {
    ...v,
    id: v.id,
    title: typeof v.title === 'string' ? v.title : '',
    createdAt: num(v.createdAt),
    updatedAt: num(v.updatedAt),
    model: typeof v.model === 'string' ? v.model : '',
    provider: typeof v.provider === 'string' ? v.provider : '',
    messageCount: num(v.messageCount),
    cost: num(v.cost),
    tokens: { input: num(tokens.input), output: num(tokens.output), cacheRead: num(tokens.cacheRead), cacheWrite: num(tokens.cacheWrite) },
    checkpoints: Array.isArray(v.checkpoints) ? v.checkpoints.filter((n): n is number => typeof n === 'number') : [],
    baselineName: typeof v.baselineName === 'string' ? v.baselineName : undefined,
    importedFrom: importedFromOf(v.importedFrom),
  };
}

/** A stored record's importedFrom when it is whole; anything else (older records, damage) reads as absent. */
function importedFromOf(value: unknown): ImportedFrom | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Partial<ImportedFrom>;
  const time = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (typeof v.title !== 'string' || !time(v.createdAt) || !time(v.exportedAt)) return undefined;
  return { title: v.title, createdAt: v.createdAt, exportedAt: v.exportedAt };
}
