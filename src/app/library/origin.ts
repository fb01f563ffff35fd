// Where a stored session came from, as its details in the list say it: an imported session keeps the date its
// original was started (sessions imported before the record kept `importedFrom` have that date as createdAt).
import type { SessionRecord } from '../../store';
import { IMPORTED_TITLE_SUFFIX } from '../../store/files/imported-title';

export type SessionOrigin = { title: string; startedAt: number; importedAt: number; exportedAt?: number };

/** The original of an imported session, or null for a session started in this browser. */
export function sessionOrigin(record: SessionRecord): SessionOrigin | null {
  if (typeof record.importedAt !== 'number') return null;
  const from = record.importedFrom;
  return from
    ? { title: from.title, startedAt: from.createdAt, importedAt: record.importedAt, exportedAt: from.exportedAt }
    : { title: record.title, startedAt: record.createdAt, importedAt: record.importedAt };
}

/**
 * A session's title as the list shows it: an imported one's " (imported)" apart from the rest, so the list can cut
 * a long title short and still show that suffix.
 */
export function titleParts(record: SessionRecord): { text: string; suffix: string } {
  const title = record.title || 'New session';
  const imported = typeof record.importedAt === 'number' && title.endsWith(IMPORTED_TITLE_SUFFIX) && title !== IMPORTED_TITLE_SUFFIX;
  return imported ? { text: title.slice(0, -IMPORTED_TITLE_SUFFIX.length), suffix: IMPORTED_TITLE_SUFFIX } : { text: title, suffix: '' };
}
