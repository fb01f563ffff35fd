// Whether the page was opened with a session link, apart from the rest so that the page's first load carries only this.

/** The parameter that names a session file's address, in the query or the hash. */
export const SESSION_LINK_PARAM = 'session';

/** The value of `session` in a page's query (`location.search`) or, failing that, its hash (`location.hash`); null without one. */
export function sessionLinkParam(search: string, hash: string): string | null {
  for (const part of [search.replace(/^\?/, ''), hash.replace(/^#/, '')]) {
    const value = new URLSearchParams(part).get(SESSION_LINK_PARAM);
    if (value !== null) return value;
  }
  return null;
}
