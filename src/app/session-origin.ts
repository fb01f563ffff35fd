// Where a stored session came from, as its details in the list say it: an imported session keeps the date its
// original was started (sessions imported before the record kept `importedFrom` have that date as createdAt).
import type { SessionRecord } from '../store';

export type SessionOrigin = { title: string; startedAt: number; importedAt: number; exportedAt?: number };

/** The original of an imported session, or null for a session started in this browser. */
export function sessionOrigin(record: SessionRecord): SessionOrigin | null {
  if (typeof record.importedAt !== 'number') return null;
  const from = record.importedFrom;
  return from
    ? { title: from.title, startedAt: from.createdAt, importedAt: record.importedAt, exportedAt: from.exportedAt }
    : { title: record.title, startedAt: record.createdAt, importedAt: record.importedAt };
}
