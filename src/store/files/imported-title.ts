// The title an imported session gets, in a module of its own so the session list can tell an import apart without
// loading the store.

/** What an imported session's title ends with. */
export const IMPORTED_TITLE_SUFFIX = ' (imported)';

/** The title of an imported session: the original's with " (imported)" (once, when a re-shared import comes back). */
export function importedTitle(title: string): string {
  const base = title.trim() || 'Untitled';
  return base.endsWith(IMPORTED_TITLE_SUFFIX) ? base : `${base.slice(0, 200 - IMPORTED_TITLE_SUFFIX.length)}${IMPORTED_TITLE_SUFFIX}`;
}
