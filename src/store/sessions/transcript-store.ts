// The session store's transcript: message entries (append-only), compactions beside them, and the one draft slot of
// the reply being streamed (key layout in session-store.ts).
import type { AssistantMessage, CompactionEntry, Message } from '../../ai/types';
import { findCompactionProblem } from '../compaction-schema';
import { requestResult } from '../db';
import { findMessageProblem } from '../message-schema';
import type { SessionStore } from '../types';
import { decodeEntry, encodeEntry } from './entry-codec';
import { compactionKey, draftKey, entryKey, messageRange, prefixRange } from '../keys';
import { accountFor, accountUsage } from './record';
import { missingTrailingResults } from './repair-transcript';
import { searchTextOf } from './search-text';
import { readSession, type StoreContext } from './store-context';

export type TranscriptStore = Pick<
  SessionStore,
  'appendEntry' | 'loadEntries' | 'loadSearchTexts' | 'recoverSession' | 'appendCompaction' | 'loadCompactions' | 'saveDraft' | 'loadDraft' | 'clearDraft'
>;

/** The transcript methods of the session store over `context`. */
export function createTranscriptStore({ db, notify }: StoreContext): TranscriptStore {
  const transcript: TranscriptStore = {
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
      const messages = await transcript.loadEntries(sessionId);
      const missing = missingTrailingResults(messages);
      for (const result of missing) {
        await transcript.appendEntry(sessionId, result);
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
  };
  return transcript;
}
