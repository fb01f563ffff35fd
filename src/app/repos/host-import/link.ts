// The `?repo=` link of a session imported from a host: `github.com/OWNER/REPO[@REF]` (or a GitLab address), read back
// into the import field. Reading a link fetches nothing; the import waits for the person's confirmation.
import { repoLink } from '../../../remote/repo-link';
import type { RepoOrigin } from '../../../store';

/** The `repo` parameter of a page address's query (`location.search`), or null. */
export function repoLinkParam(search: string): string | null {
  const value = new URLSearchParams(search).get('repo');
  return value && value.trim() !== '' ? value.trim() : null;
}

/** The page address that opens the import of `origin` at its ref: `<page>?repo=HOST/OWNER/REPO@REF` (the tree form
 * for a ref with a slash), with the page's other parameters and hash dropped. */
export function repoLinkFor(origin: RepoOrigin, page: string): string {
  const url = new URL(page);
  url.search = '';
  url.hash = '';
  return repoLink(url.toString(), { host: origin.host, owner: origin.owner, repo: origin.repo, ref: origin.ref, webOrigin: origin.web });
}
