// IndexedDB persistence of sessions (DESIGN.md "Storage"). Key layout:
//   sessions:  <id>                          small SessionRecord
//   entries:   <id>/<seq padded to 8>        one Message per record (its large texts in Blobs: entry-codec.ts);
//                                            appending never rewrites earlier ones
//              <id>/compaction/<n padded>    one CompactionEntry per record, in the order made
//              <id>/draft                    the reply being streamed (overwritten; cleared when it completes)
//   snapshots: <id>/latest, <id>/checkpoint/<seq padded to 8>, <baselineId>/baseline
//              { tree: <root tree id> }, or a whole workspace zip in stores written before content addressing
//   trees:     <git tree id>                 one folder of a snapshot (codec.ts)
//   blobs:     <git blob id>                 one file's bytes, stored once for every snapshot of every session
//   settings:  "settings"                    the settings object (API keys stay in this store)
import { get, set } from 'idb-keyval';
import type { AssistantMessage, CompactionEntry, Message, UserMessage } from '../../ai/types';
import { findCompactionProblem } from '../compaction-schema';
import { mapStorageError, openDatabase, requestResult } from '../db';
import { decodeEntry, encodeEntry } from './entry-codec';
import { collectGarbage } from '../objects/garbage-collection';
import { findMessageProblem } from '../message-schema';
import { ObjectStore, putObjects } from '../objects/object-store';
import { searchTextOf } from './search-text';
import { missingTrailingResults } from './repair-transcript';
import { accountFor, accountUsage, normalizeSession, zeroTokens } from './record';
import { compactionKey, draftKey, entryKey, messageRange, prefixRange } from './keys';
import { baselineKey, checkpointKey, describeRef, latestKey, readStoredSnapshot, treeValue, type StoredSnapshot } from '../objects/snapshot-refs';
import { upgradeSnapshots } from '../objects/snapshot-migration';
import { storageUsage } from '../objects/storage-usage';
import { zipOfTree } from '../objects/trees/files';
import type {
  ForkResult,
  NewSession,
  SessionChange,
  SessionPatch,
  SessionRecord,
  SessionStore,
  SnapshotRef,
} from '../types';

export type SessionStoreOptions = {
  /** Prefix of the database name, so tests and previews stay apart. */
  prefix?: string;
  /** Told after every committed change to the session list (wire it to openSessionEvents().publish). */
  onChange?: (change: SessionChange) => void;
  indexedDB?: IDBFactory;
  /** Quiet time after a deletion before unreferenced snapshot data is collected; default 2 s. */
  collectAfterMs?: number;
};

const SETTINGS_KEY = 'settings';


/** Opens the session store (lazily connecting to IndexedDB on first use). */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const db = openDatabase(options.prefix, options.indexedDB);
  const settingsStore = db.keyval('settings');
  const objects = new ObjectStore(db);
  const notify = (change: SessionChange) => options.onChange?.(change);
  let collectTimer: ReturnType<typeof setTimeout> | null = null;

  // Collection runs in the background, after the burst of deletions that made garbage; a failure only means the
  // space is freed later.
  function collectSoon(): void {
    if (collectTimer) clearTimeout(collectTimer);
    collectTimer = setTimeout(() => {
      collectTimer = null;
      void collectGarbage(db, objects).catch(() => undefined);
    }, options.collectAfterMs ?? 2000);
  }

  async function readSession(stores: { sessions: IDBObjectStore }, id: string): Promise<SessionRecord> {
    const record = normalizeSession(await requestResult(stores.sessions.get(id)));
    if (!record) throw new Error(`Session ${id} does not exist (it may have been deleted in another tab).`);
    return record;
  }

  async function dropBaselineIfUnused(stores: { sessions: IDBObjectStore; snapshots: IDBObjectStore }, baselineId?: string) {
    if (!baselineId) return;
    const all = (await requestResult(stores.sessions.getAll())) as unknown[];
    if (all.some((s) => normalizeSession(s)?.baselineId === baselineId)) return;
    stores.snapshots.delete(baselineKey(baselineId));
  }

  async function snapshotKey(stores: { sessions: IDBObjectStore }, id: string, ref: SnapshotRef): Promise<string | undefined> {
    if (ref === 'latest') return latestKey(id);
    if (ref === 'baseline') {
      const session = await readSession(stores, id);
      return session.baselineId ? baselineKey(session.baselineId) : undefined;
    }
    return checkpointKey(id, ref.checkpoint);
  }

  async function loadStored(sessionId: string, ref: SnapshotRef): Promise<StoredSnapshot | undefined> {
    const value = await db.transact(['sessions', 'snapshots'], 'readonly', 'the snapshot', async (s) => {
      const key = await snapshotKey(s, sessionId, ref);
      return key === undefined ? undefined : requestResult(s.snapshots.get(key));
    });
    return readStoredSnapshot(value);
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
        s.snapshots.delete(latestKey(id));
        s.snapshots.delete(prefixRange(`${id}/checkpoint/`));
        await dropBaselineIfUnused(s, session?.baselineId);
      });
      notify({ type: 'deleted', id });
      collectSoon();
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
        checkpoints: [...((seed.trees ? seed.trees.checkpoints : seed.checkpoints)?.keys() ?? [])].sort((a, b) => a - b),
        baselineId: (seed.trees ? seed.trees.baseline : seed.baseline) ? id : undefined,
        importedAt: now,
        importedFrom: seed.importedFrom,
      };
      await db.transact(['sessions', 'entries', 'snapshots', 'trees', 'blobs'], 'readwrite', 'the imported session', async (s) => {
        for (const [seq, message] of seed.messages.entries()) {
          s.entries.put(seed.storedEntries?.[seq] ?? encodeEntry(message), entryKey(id, seq));
          session = accountFor(session, message, seq);
        }
        for (const [n, compaction] of (seed.compactions ?? []).entries()) {
          s.entries.put(compaction, compactionKey(id, n));
          session = accountUsage(session, compaction.usage);
        }
        if (seed.trees) {
          await putObjects(s, seed.trees.objects, objects.packs);
          if (seed.trees.latest) s.snapshots.put(treeValue(seed.trees.latest), latestKey(id));
          if (seed.trees.baseline) s.snapshots.put(treeValue(seed.trees.baseline), baselineKey(id));
          for (const [seq, root] of seed.trees.checkpoints) s.snapshots.put(treeValue(root), checkpointKey(id, seq));
        } else {
          if (seed.latest) s.snapshots.put(seed.latest, latestKey(id));
          if (seed.baseline) s.snapshots.put(seed.baseline, baselineKey(id));
          for (const [seq, zip] of seed.checkpoints ?? []) s.snapshots.put(zip, checkpointKey(id, seq));
        }
        s.sessions.put({ ...session, model: seed.model || session.model, provider: seed.provider || session.provider, updatedAt: now }, id);
      });
      notify({ type: 'created', id });
      return (await store.getSession(id)) as SessionRecord;
    },

    async saveSnapshot(sessionId, ref, zip) {
      await db.transact(['sessions', 'snapshots'], 'readwrite', describeRef(ref), (s) => putRef(s, sessionId, ref, zip));
    },

    async loadSnapshot(sessionId, ref) {
      const stored = await loadStored(sessionId, ref);
      if (!stored) return undefined;
      return 'zip' in stored ? stored.zip : zipOfTree(objects, stored.tree);
    },

    objects,

    async commitSnapshot(sessionId, ref, snapshot) {
      const written = await db.transact(['sessions', 'snapshots', 'trees', 'blobs'], 'readwrite', describeRef(ref), async (s) => {
        const bytes = await putObjects(s, snapshot.objects, objects.packs);
        await putRef(s, sessionId, ref, treeValue(snapshot.root));
        return bytes;
      });
      objects.remember(snapshot.objects.trees.values());
      return written;
    },

    loadStoredSnapshot: loadStored,

    async upgradeSnapshots(sessionId) {
      const session = await store.getSession(sessionId);
      if (!session) throw new Error(`Session ${sessionId} does not exist (it may have been deleted in another tab).`);
      return upgradeSnapshots(db, sessionId, session.baselineId);
    },

    async storageUsage() {
      return storageUsage(db, objects, await store.listSessions());
    },

    async dropCheckpoints(sessionId, keep) {
      const dropped = await db.transact(['sessions', 'snapshots'], 'readwrite', 'the checkpoints', async (s) => {
        const session = await readSession(s, sessionId);
        const cut = Math.max(0, session.checkpoints.length - Math.max(0, keep));
        const gone = session.checkpoints.slice(0, cut);
        for (const seq of gone) s.snapshots.delete(checkpointKey(sessionId, seq));
        s.sessions.put({ ...session, checkpoints: session.checkpoints.slice(cut) }, sessionId);
        return gone;
      });
      if (dropped.length > 0) {
        notify({ type: 'updated', id: sessionId });
        collectSoon();
      }
      return dropped;
    },

    collectGarbage(collectOptions) {
      // A collection asked for now makes the one scheduled after the last deletion pointless.
      if (collectTimer) clearTimeout(collectTimer);
      collectTimer = null;
      return collectGarbage(db, objects, collectOptions);
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
      if (collectTimer) clearTimeout(collectTimer);
      collectTimer = null;
      db.close();
    },
  };

  /** Points `ref` of a session at `value` (a zip or a tree ref), keeping the session record's bookkeeping. */
  async function putRef(s: { sessions: IDBObjectStore; snapshots: IDBObjectStore }, sessionId: string, ref: SnapshotRef, value: unknown): Promise<void> {
    const session = await readSession(s, sessionId);
    if (ref === 'latest') {
      s.snapshots.put(value, latestKey(sessionId));
      return;
    }
    if (ref === 'baseline') {
      // A fork shares its parent's baseline until it gets its own: copy on write.
      s.snapshots.put(value, baselineKey(sessionId));
      const previous = session.baselineId;
      s.sessions.put({ ...session, baselineId: sessionId }, sessionId);
      if (previous !== sessionId) {
        await dropBaselineIfUnused(s, previous);
        collectSoon();
      }
      return;
    }
    s.snapshots.put(value, checkpointKey(sessionId, ref.checkpoint));
    if (!session.checkpoints.includes(ref.checkpoint)) {
      const checkpoints = [...session.checkpoints, ref.checkpoint].sort((a, b) => a - b);
      s.sessions.put({ ...session, checkpoints }, sessionId);
    }
  }

  return store;
}
