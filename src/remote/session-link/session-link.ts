// The `?session=<url>` link (or `#session=<url>`): a page address that opens Conch with a shared session file to
// fetch from somewhere else, after a confirm card. Reading a link fetches nothing. Only https: addresses are taken,
// and http: on this machine (localhost, 127.0.0.1, [::1]) for development: a plain-http file could be swapped on the
// way, and any other scheme (javascript:, data:, file:, blob:) is not a file on a host at all.
import { SESSION_LINK_PARAM as PARAM } from './link-param';
import { queryKey } from '../query-key';

export { sessionLinkParam } from './link-param';

/** A session file's address, checked, with what the confirm card shows before anything is fetched. */
export type SessionLink = {
  /** The address as fetch takes it (normalised by URL). */
  url: string;
  /** The host it comes from, with its port when it has one: `gist.githubusercontent.com`, `127.0.0.1:8080`. */
  host: string;
  /** The last segment of the address's path, decoded (`fix-login-2026-01-02.conch.zip`), or the host without one. */
  fileName: string;
};

export type SessionLinkResult = { ok: true; link: SessionLink } | { ok: false; error: string };

// Longer than any file address a host gives; a longer one is not a link a person made.
const MAX_LENGTH = 4096;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Checks a session file's address; refuses (with why) anything but https:, or http: on this machine. */
export function readSessionLink(value: string): SessionLinkResult {
  const input = value.trim();
  if (input === '') return { ok: false, error: 'The link names no session file: expected ?session=https://…/name.conch.zip.' };
  if (input.length > MAX_LENGTH) return { ok: false, error: `The session file's address is over ${MAX_LENGTH.toLocaleString('en')} characters; Conch does not open it.` };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, error: `“${shortened(input)}” is not a web address: expected ?session=https://…/name.conch.zip.` };
  }
  const schemeProblem = refusedScheme(url);
  if (schemeProblem) return { ok: false, error: schemeProblem };
  if (url.username !== '' || url.password !== '') {
    return { ok: false, error: 'The session file’s address holds a user name or password; Conch does not send those. Use an address that needs no sign-in.' };
  }
  url.hash = '';
  return { ok: true, link: { url: url.toString(), host: url.host, fileName: fileNameOf(url) } };
}

/** `pageUrl` without `session=` in its query or its hash (the rest kept as written), once its link was handled. */
export function withoutSessionLink(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.search = withoutParam(url.search.replace(/^\?/, ''), '?');
  url.hash = withoutParam(url.hash.replace(/^#/, ''), '#');
  return url.toString();
}

/** The link that opens the session file at `fileUrl` in the Conch at `pageUrl`: `<page origin and path>?session=<fileUrl>`. */
export function sessionShareLink(pageUrl: string, fileUrl: string): string {
  const page = new URL(pageUrl);
  return `${page.origin}${page.pathname}?${PARAM}=${queryEscape(fileUrl.trim())}`;
}

function refusedScheme(url: URL): string | null {
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname)) return null;
    return `Conch opens session files only from https: addresses (http: only from this machine, for development); ${url.host} was given over plain http:. Use the file’s https: address.`;
  }
  return `Conch opens session files only from https: addresses; “${url.protocol}” links are refused, and nothing was fetched.`;
}

function fileNameOf(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (!last) return url.host;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function shortened(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

// A query may hold '/', ':' and '@' as they are (RFC 3986), so the link stays readable; the rest stays escaped, so
// the file address's own '?' and '&' cannot be read as the page's.
function queryEscape(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%3A/gi, ':').replace(/%40/gi, '@');
}

// Rebuilt by hand rather than through URLSearchParams, which would re-encode the other parameters.
function withoutParam(pairs: string, mark: '?' | '#'): string {
  const kept = pairs.split('&').filter((pair) => pair !== '' && queryKey(pair) !== PARAM);
  return kept.length > 0 ? `${mark}${kept.join('&')}` : '';
}
