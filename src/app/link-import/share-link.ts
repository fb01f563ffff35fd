// "Copy share link" in the export: a session file must be hosted somewhere that allows cross-origin reads before a
// link can open it, so the person gives the file's address and gets `<this page>?session=<address>`. The address
// is checked as an opened link would be, so no link is offered that Conch would refuse. Where to host the file is
// the README's "Sharing a session by link", shipped with the app (the dialog shows that section).
import { readSessionLink, sessionShareLink } from '../../remote/session-link/session-link';

/** The README section the share dialog shows. */
export const SHARING_DOCS_HEADING = 'Sharing a session by link';

export type ShareLinkResult = { ok: true; link: string; host: string } | { ok: false; error: string };

/** The link that opens the file hosted at `fileUrl` in the Conch at `pageHref`, or why that address cannot be opened. */
export function shareLinkFor(pageHref: string, fileUrl: string): ShareLinkResult {
  const read = readSessionLink(fileUrl);
  if (!read.ok) return read;
  return { ok: true, link: sessionShareLink(pageHref, read.link.url), host: read.link.host };
}

/** The `## heading` section of a Markdown document (without its heading line), or '' when it has none. */
export function markdownSection(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start === -1) return '';
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n').trim();
}
