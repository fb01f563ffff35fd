// Fetching a session file a link names, from a host outside the tab, with the browser's own CORS fetch (no cookies):
// first, before the person confirms, only its size (a HEAD; many hosts answer it, some do not, and then the size is
// unknown); then the file itself, read as it streams so progress shows and a download past the size cap stops
// there. A host that does not allow cross-origin reads looks to the page exactly like one that cannot be reached (a
// TypeError, no status): the message names both and says what the host must send.
import { DEFAULT_MAX_TOTAL_BYTES, formatBytes } from '../../store/zip/repo-zip';
import { ImportCancelledError } from '../../store/errors';
import type { SessionLink } from './session-link';
import { readCappedBody } from '../response-body';

/** The largest session file a link downloads: a file import refuses one that unpacks to more, whatever it weighs packed. */
export const MAX_SESSION_LINK_BYTES = DEFAULT_MAX_TOTAL_BYTES;

/** A session file that could not be fetched from its link; the message says what to do. */
export class SessionLinkError extends Error {
  override readonly name = 'SessionLinkError';
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'status' | 'too-large',
  ) {
    super(message);
  }
}

export type SessionFileProbe = { size: number | null };

export type SessionFileFetchOptions = {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** Default MAX_SESSION_LINK_BYTES. */
  maxBytes?: number;
  /** The bytes read so far and the total when the host said it (Content-Length). */
  onProgress?: (progress: { bytes: number; totalBytes: number | null }) => void;
};

/** The file's size as the host tells it to a HEAD (null when it does not say or does not answer); never throws but on cancel. */
export async function probeSessionFile(link: SessionLink, options: Pick<SessionFileFetchOptions, 'fetch' | 'signal'>): Promise<SessionFileProbe> {
  try {
    const response = await options.fetch(link.url, { method: 'HEAD', mode: 'cors', credentials: 'omit', signal: options.signal });
    return { size: response.ok ? contentLength(response) : null };
  } catch (error) {
    if (options.signal?.aborted) throw new ImportCancelledError('Opening the link');
    return { size: null };
  }
}

/** The session file's bytes; throws SessionLinkError (unreachable or no CORS, an error status, over the cap) or ImportCancelledError. */
export async function fetchSessionFile(link: SessionLink, options: SessionFileFetchOptions): Promise<Uint8Array> {
  const { signal, onProgress } = options;
  const maxBytes = options.maxBytes ?? MAX_SESSION_LINK_BYTES;
  const cancelled = () => new ImportCancelledError('Opening the link');
  let response: Response;
  try {
    response = await options.fetch(link.url, { mode: 'cors', credentials: 'omit', signal });
  } catch {
    if (signal?.aborted) throw cancelled();
    throw unreachable(link);
  }
  if (!response.ok) {
    void response.body?.cancel();
    throw new SessionLinkError(
      `${link.host} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${link.fileName}. ` +
        'Check that the link points at the file itself (a raw or download address, not a page that shows it) and that it is public.',
      'status',
    );
  }
  const totalBytes = contentLength(response);
  if (totalBytes !== null && totalBytes > maxBytes) {
    void response.body?.cancel();
    throw tooLarge(link, totalBytes, maxBytes);
  }
  return readBody(response, { link, maxBytes, totalBytes, signal, onProgress, cancelled });
}

/** A message for a size known before download, for the confirm card; null when within the cap. */
export function sizeProblem(link: SessionLink, size: number | null, maxBytes = MAX_SESSION_LINK_BYTES): string | null {
  return size !== null && size > maxBytes ? tooLarge(link, size, maxBytes).message : null;
}

async function readBody(
  response: Response,
  read: { link: SessionLink; maxBytes: number; totalBytes: number | null; signal?: AbortSignal; onProgress: SessionFileFetchOptions['onProgress']; cancelled: () => Error },
): Promise<Uint8Array> {
  const { link, maxBytes, totalBytes, signal, onProgress } = read;
  let bytes = 0;
  try {
    return await readCappedBody(response, maxBytes, () => tooLarge(link, bytes, maxBytes, true), (count) => {
      bytes = count;
      onProgress?.({ bytes, totalBytes });
    });
  } catch (error) {
    if (signal?.aborted) throw read.cancelled();
    if (error instanceof SessionLinkError) throw error;
    throw new SessionLinkError(`The download of ${link.fileName} from ${link.host} broke off after ${formatBytes(bytes)}: try again.`, 'unreachable');
  }
}

function contentLength(response: Response): number | null {
  const header = response.headers.get('Content-Length');
  if (header === null || !/^\d+$/.test(header.trim())) return null;
  return Number(header);
}

function unreachable(link: SessionLink): SessionLinkError {
  return new SessionLinkError(
    `Conch could not read ${link.fileName} from ${link.host}: the host cannot be reached, or it does not allow other sites to read ` +
      'its files. To open from a link, the file’s host must allow cross-origin reads (send Access-Control-Allow-Origin, e.g. *). ' +
      'A GitHub gist’s raw URL (gist.githubusercontent.com/…/raw/…) does: put the file there and share that address.',
    'unreachable',
  );
}

function tooLarge(link: SessionLink, bytes: number, maxBytes: number, partial = false): SessionLinkError {
  const size = partial ? `passed ${formatBytes(maxBytes)} while downloading` : `is ${formatBytes(bytes)}`;
  return new SessionLinkError(
    `${link.fileName} from ${link.host} ${size}, over the ${formatBytes(maxBytes)} limit for session files. Nothing was imported.`,
    'too-large',
  );
}
