// IndexedDB persistence of sessions (DESIGN.md "Storage"). Key layout:
//   sessions:  <id>                          small SessionRecord
//   entries:   <id>/<seq padded to 8>        one Message per record (its large texts in Blobs: entry-codec.ts);
//                                            appending never rewrites earlier ones
//              <id>/compaction/<n padded>    one CompactionEntry per record, in the order made
//              <id>/draft                    the reply being streamed (overwritten; cleared when it completes)
//              <id>/task/<toolCallId>        one subagent TaskEntry, written whole on each save (task-store.ts)
//   snapshots: <id>/latest, <id>/checkpoint/<seq padded to 8>, <baselineId>/baseline
//              { tree: <root tree id> }, or a whole workspace zip in stores written before content addressing
//   trees:     <git tree id>                 one folder of a snapshot (codec.ts)
//   blobs:     <git blob id>                 one file's bytes, stored once for every snapshot of every session
//   settings:  "settings"                    the settings object (API keys stay in this store)
//              folder/<id>                   the session's local folder: its handle and sync record (folderLinkKey)
// The store is made of parts over one StoreContext (store-context.ts): the session list and settings here, the
// transcript (transcript-store.ts), its subagent tasks (task-store.ts), a session's snapshots (snapshot-store.ts), import and fork (import-and-fork.ts).
import { del, get, set } from 'idb-keyval';
import { mapStorageError, openDatabase, requestResult } from '../db';
import { collectGarbage } from '../objects/garbage-collection';
import { ObjectStore } from '../objects/object-store';
import { latestKey } from '../objects/snapshot-refs';
import { storageUsage } from '../objects/storage-usage';
import type { SessionChange, SessionRecord, SessionStore } from '../types';
import { createImportAndFork } from './import-and-fork';
import { folderLinkKey, prefixRange } from '../keys';
import { normalizeSession, zeroTokens } from './record';
import { createSnapshotStore } from './snapshot-store';
import { dropBaselineIfUnused, loadSession, readSession, type StoreContext } from './store-context';
import { createTaskStore } from './task-store';
import { createTranscriptStore } from './transcript-store';

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
  const context: StoreContext = { db, objects, notify, collectSoon };

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

    async loadFolderLink(id) {
      try {
        return await get<unknown>(folderLinkKey(id), settingsStore);
      } catch (error) {
        throw mapStorageError(error, 'the folder link');
      }
    },

    async saveFolderLink(id, link) {
      try {
        if (link === undefined) await del(folderLinkKey(id), settingsStore);
        else await set(folderLinkKey(id), link, settingsStore);
      } catch (error) {
        throw mapStorageError(error, 'the folder link');
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

    getSession(id) {
      return loadSession(db, id);
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
      await db.transact(['sessions', 'entries', 'snapshots', 'settings'], 'readwrite', 'the deletion', async (s) => {
        const session = normalizeSession(await requestResult(s.sessions.get(id)));
        s.sessions.delete(id);
        s.settings.delete(folderLinkKey(id));
        s.entries.delete(prefixRange(`${id}/`));
        s.snapshots.delete(latestKey(id));
        s.snapshots.delete(prefixRange(`${id}/checkpoint/`));
        await dropBaselineIfUnused(s, session?.baselineId);
      });
      notify({ type: 'deleted', id });
      collectSoon();
    },

    ...createTranscriptStore(context),
    ...createTaskStore(context),
    ...createImportAndFork(context),
    ...createSnapshotStore(context),

    objects,

    async storageUsage() {
      return storageUsage(db, objects, await store.listSessions());
    },

    collectGarbage(collectOptions) {
      // A collection asked for now makes the one scheduled after the last deletion pointless.
      if (collectTimer) clearTimeout(collectTimer);
      collectTimer = null;
      return collectGarbage(db, objects, collectOptions);
    },

    close() {
      if (collectTimer) clearTimeout(collectTimer);
      collectTimer = null;
      db.close();
    },
  };

  return store;
}
