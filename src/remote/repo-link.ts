// The `?repo=` link: a page address that opens Conch with an import filled in (and a confirm card before anything
// is fetched), and the link "Copy link" gives for a session imported from a host. The value is what a person would
// paste (`github.com/OWNER/REPO@REF`, a GitLab URL), so it is read with parseRepoUrl; it is written with only the
// characters a query cannot hold escaped, so the link stays readable. Other parameters of the page pass untouched.
import { parseRepoUrl, type KnownHosts, type RepoHost, type RepoLocation } from './repo-url';
import { queryKey } from './query-key';

export type RepoLinkResult = { ok: true; input: string; location: RepoLocation } | { ok: false; error: string };

/** What a session's import came from, as a link names it. */
export type LinkOrigin = {
  host: RepoHost;
  owner: string;
  repo: string;
  ref: string;
  /** The subfolder imported, when only one was. */
  folder?: string;
  /** The host's web origin when not github.com or gitlab.com (a self-managed GitLab, GitHub Enterprise). */
  webOrigin?: string;
};

const PARAM = 'repo';
// Longer than any address a person pastes; a longer one is not a link Conch made.
const MAX_LENGTH = 2048;
const DEFAULT_ORIGINS: Record<RepoHost, string> = { github: 'https://github.com', gitlab: 'https://gitlab.com' };

/** The repository a page's `?repo=` names, read as parseRepoUrl reads a pasted address; null when there is none. */
export function repoFromLink(search: string, known: KnownHosts = {}): RepoLinkResult | null {
  const raw = new URLSearchParams(search).get(PARAM);
  if (raw === null) return null;
  // URLSearchParams reads '+' as a space; no repository address or git ref holds a space, so it was a '+'.
  const input = raw.replace(/ /g, '+').trim();
  if (input === '') return { ok: false, error: 'The link names no repository: expected ?repo=github.com/OWNER/REPO or a GitLab address.' };
  if (input.length > MAX_LENGTH) return { ok: false, error: `The link's repository address is over ${MAX_LENGTH} characters; paste the address instead.` };
  const parsed = parseRepoUrl(input, known);
  return parsed.ok ? { ok: true, input, location: parsed.location } : { ok: false, error: `The link's repository cannot be opened: ${parsed.error}` };
}

/** `pageUrl` with `?repo=` naming `origin` (replacing any there), for "Copy link". */
export function repoLink(pageUrl: string, origin: LinkOrigin): string {
  return withParam(pageUrl, `${PARAM}=${queryEscape(linkValue(origin))}`);
}

/** `pageUrl` without its `?repo=`, once the import it named was confirmed or dismissed. */
export function withoutRepoLink(pageUrl: string): string {
  return withParam(pageUrl, null);
}

/** What `?repo=` holds for `origin`: `github.com/O/R@REF` (or …/tree/REF/FOLDER), or the GitLab web address. */
function linkValue(origin: LinkOrigin): string {
  const web = (origin.webOrigin ?? DEFAULT_ORIGINS[origin.host]).replace(/\/+$/, '');
  const path = (text: string) => text.split('/').filter(Boolean).map(encodeURIComponent).join('/');
  const project = `${path(origin.owner)}/${path(origin.repo)}`;
  const tree = `${path(origin.ref)}${origin.folder ? `/${path(origin.folder)}` : ''}`;
  if (origin.host === 'gitlab') return `${web}/${project}/-/tree/${tree}`;
  const site = web === DEFAULT_ORIGINS.github ? 'github.com' : web;
  // `@REF` holds one path segment; a ref with a slash, or a folder, takes the tree form parseRepoUrl splits.
  if (!origin.ref.includes('/') && !origin.folder) return `${site}/${project}@${path(origin.ref)}`;
  return `${site}/${project}/tree/${tree}`;
}

// A query may hold '/', ':' and '@' as they are (RFC 3986); everything else encodeURIComponent escapes stays escaped.
function queryEscape(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3A/gi, ':').replace(/%40/gi, '@');
}

// Rebuilt by hand rather than through URLSearchParams, which would re-encode the other parameters.
function withParam(pageUrl: string, param: string | null): string {
  const url = new URL(pageUrl);
  const kept = url.search.replace(/^\?/, '').split('&').filter((pair) => pair !== '' && queryKey(pair) !== PARAM);
  const pairs = param === null ? kept : [...kept, param];
  url.search = pairs.length > 0 ? `?${pairs.join('&')}` : '';
  return url.toString();
}
