// Every request to GitLab goes through one GitLabClient: the API under the host's `/api/v4`, the token as
// PRIVATE-TOKEN, counts per kind, and failures turned into GitLabErrors that say what to do (a 429 names the time
// to retry, a refused token says so, a failed fetch is offline). Downloads are read as a stream with a running
// count, since GitLab sends archives without a Content-Length, and stopped as soon as they pass a cap.
import { readCappedBody, readJsonBody } from '../response-body';
import { ImportCancelledError } from '../../store/errors';
import { BadTokenError, ForbiddenError, OfflineError, RateLimitError, UnexpectedAnswerError } from './errors';

export type GitLabAccess = {
  fetch: typeof fetch;
  /** The GitLab host's web address, as settings name it (default https://gitlab.com); the API is under /api/v4. */
  baseUrl: string;
  token?: string;
  signal?: AbortSignal;
};

export type GitLabRequestCounts = { api: number; archive: number };
export type Answer = { status: number; body: unknown };

export const DEFAULT_GITLAB_URL = 'https://gitlab.com';
// When a 429 names no time (or the browser cannot read it), GitLab's throttles reset within a minute.
const DEFAULT_RETRY_S = 60;

/** The REST base of a GitLab host: https://HOST/api/v4 (an address already ending in /api/v4 is kept). */
export function gitlabApiUrl(baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return base.endsWith('/api/v4') ? base : `${base}/api/v4`;
}

export class GitLabClient {
  readonly requests: GitLabRequestCounts = { api: 0, archive: 0 };
  readonly withToken: boolean;
  private readonly fetch: typeof fetch;
  private readonly apiUrl: string;
  private readonly headers: Record<string, string>;
  private readonly signal?: AbortSignal;

  constructor(access: GitLabAccess) {
    this.fetch = access.fetch;
    this.apiUrl = gitlabApiUrl(access.baseUrl);
    this.withToken = Boolean(access.token);
    this.signal = access.signal;
    this.headers = access.token ? { 'private-token': access.token } : {};
  }

  /** GETs an API path (`/projects/…`); statuses in `accept` come back as they are, other failures throw. */
  async get(path: string, what: string, accept: readonly number[] = []): Promise<Answer> {
    const response = await this.send('api', path, what, accept);
    return { status: response.status, body: await this.read(() => jsonOf(response, what)) };
  }

  /**
   * A download's bytes, `onBytes` told the running count (and the total when GitLab sends one). Past `maxBytes`
   * it is stopped and `tooLarge` thrown. A status in `accept` comes back as null.
   */
  async download(
    path: string,
    what: string,
    limit: { maxBytes: number; tooLarge: () => Error },
    onBytes: (bytes: number, totalBytes: number | null) => void,
    accept: readonly number[] = [],
  ): Promise<{ status: number; data: Uint8Array | null }> {
    const response = await this.send('archive', path, what, accept);
    if (!response.ok) {
      await response.body?.cancel();
      return { status: response.status, data: null };
    }
    const length = Number(response.headers.get('content-length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    return { status: response.status, data: await this.read(() => readCappedBody(response, limit.maxBytes, limit.tooLarge, (bytes) => onBytes(bytes, total))) };
  }

  private async send(kind: keyof GitLabRequestCounts, path: string, what: string, accept: readonly number[]): Promise<Response> {
    if (this.signal?.aborted) throw new ImportCancelledError();
    this.requests[kind]++;
    let response: Response;
    try {
      response = await this.fetch(`${this.apiUrl}${path}`, { headers: this.headers, signal: this.signal });
    } catch (error) {
      if (this.signal?.aborted) throw new ImportCancelledError();
      throw new OfflineError({ cause: error });
    }
    if (response.ok || (accept.includes(response.status) && response.status !== 401 && response.status !== 429)) return response;
    throw await failure(response, what, this.withToken);
  }

  // A body that stops because the import was cancelled is a cancel; one that breaks off is the network.
  private async read<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (this.signal?.aborted) throw new ImportCancelledError();
      if (error instanceof TypeError) throw new OfflineError({ cause: error });
      throw error;
    }
  }
}

async function failure(response: Response, what: string, withToken: boolean): Promise<Error> {
  if (response.status === 429) {
    await response.body?.cancel();
    return new RateLimitError(retryAtOf(response), withToken);
  }
  if (response.status === 401) {
    await response.body?.cancel();
    return new BadTokenError();
  }
  const message = await messageOf(response);
  if (response.status === 403) return new ForbiddenError(what, message || '403 Forbidden');
  return new UnexpectedAnswerError(what, `${response.status}${message ? `: ${message}` : ''}`, response.status);
}

/** When a 429 allows the next request: Retry-After (seconds or a date), else RateLimit-Reset (epoch seconds). */
function retryAtOf(response: Response): Date {
  const retryAfter = response.headers.get('retry-after')?.trim() ?? '';
  if (/^\d+$/.test(retryAfter)) return new Date(Date.now() + Number(retryAfter) * 1000);
  const date = retryAfter ? Date.parse(retryAfter) : NaN;
  if (Number.isFinite(date)) return new Date(date);
  const reset = Number(response.headers.get('ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return new Date(reset * 1000);
  return new Date(Date.now() + DEFAULT_RETRY_S * 1000);
}

/** The message of a GitLab error body (`message`, or `error` for an unknown route), if it has one. */
async function messageOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown };
    const message = body.message ?? body.error;
    return typeof message === 'string' ? message : '';
  } catch {
    return text.trim().slice(0, 200);
  }
}

function jsonOf(response: Response, what: string): Promise<unknown> {
  return readJsonBody(response, () => new UnexpectedAnswerError(what, `${response.status}, not JSON`, response.status));
}
