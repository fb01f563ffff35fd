// What the parts of the session store (session-store.ts) share: the database, the object cache, the store's change
// signal and background collection, and the reads of session records every part starts from.
import { requestResult, type Database } from '../db';
import type { ObjectStore } from '../objects/object-store';
import { baselineKey } from '../objects/snapshot-refs';
import type { SessionChange, SessionRecord } from '../types';
import { normalizeSession } from './record';

export type StoreContext = {
  db: Database;
  objects: ObjectStore;
  /** Tells the store's onChange after a committed change to the session list. */
  notify(change: SessionChange): void;
  /** Schedules a garbage collection after deletions (debounced). */
  collectSoon(): void;
};

/** The session record `id`, read in its own transaction; undefined when there is none. */
export async function loadSession(db: Database, id: string): Promise<SessionRecord | undefined> {
  const value = await db.transact(['sessions'], 'readonly', 'the session', (s) => requestResult(s.sessions.get(id)));
  return normalizeSession(value) ?? undefined;
}

/** The session record `id` inside a transaction; throws, saying so, when it was deleted. */
export async function readSession(stores: { sessions: IDBObjectStore }, id: string): Promise<SessionRecord> {
  const record = normalizeSession(await requestResult(stores.sessions.get(id)));
  if (!record) throw new Error(`Session ${id} does not exist (it may have been deleted in another tab).`);
  return record;
}

/** Deletes baseline `baselineId` once no session names it (forks share their parent's). */
export async function dropBaselineIfUnused(stores: { sessions: IDBObjectStore; snapshots: IDBObjectStore }, baselineId?: string): Promise<void> {
  if (!baselineId) return;
  const all = (await requestResult(stores.sessions.getAll())) as unknown[];
  if (all.some((s) => normalizeSession(s)?.baselineId === baselineId)) return;
  stores.snapshots.delete(baselineKey(baselineId));
}
