// The `?repo=` link of a session imported from a host: `github.com/OWNER/REPO[@REF]` (or a GitLab address), read back
// into the import field. Reading a link fetches nothing; the import waits for the person's confirmation.
import type { RepoOrigin } from '../../../store';

/** The `repo` parameter of a page address's query (`location.search`), or null. */
export function repoLinkParam(search: string): string | null {
  const value = new URLSearchParams(search).get('repo');
  return value && value.trim() !== '' ? value.trim() : null;
}

/** The page address that opens the import of `origin` at its ref: `<page>?repo=HOST/OWNER/REPO@REF`. */
export function repoLinkFor(origin: RepoOrigin, page: string): string {
  const url = new URL(page);
  url.search = '';
  url.hash = '';
  const host = origin.web.replace(/^https?:\/\//, '');
  const where = `${host}/${origin.owner}/${origin.repo}`;
  const value = origin.host === 'gitlab' ? `${origin.web}/${origin.owner}/${origin.repo}/-/tree/${origin.ref}` : `${where}@${origin.ref}`;
  // Slashes, '@' and ':' read fine in a query; leaving them unescaped keeps the link legible.
  return `${url.toString()}?repo=${encodeURIComponent(value).replace(/%2F/g, '/').replace(/%40/g, '@').replace(/%3A/g, ':')}`;
}
