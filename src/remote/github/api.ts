// Every request of an import or a push goes through one GitHubClient: at most 16 in flight, the token on API requests (never
// on raw ones), counts per kind, a secondary rate limit waited out (every request pauses, then the refused one is
// sent again; bounded and abortable), and failures turned into GitHubErrors that say what to do.
import { readCappedBody, readJsonBody } from '../response-body';
import { ImportCancelledError } from '../../store/errors';
import {
  BadTokenError, CorruptFileError, OfflineError, RateLimitError, SecondaryLimitError, UnexpectedAnswerError,
} from './errors';
import { InFlight, sleep } from './in-flight';

export type GitHubAccess = {
  fetch: typeof fetch;
  /** e.g. https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise. */
  apiUrl: string;
  /** e.g. https://raw.githubusercontent.com */
  rawUrl: string;
  token?: string;
  signal?: AbortSignal;
  /** The longest wait for a secondary rate limit before giving up; default 60 s. */
  maxRetryWaitMs?: number;
  /** Default 16. */
  maxInFlight?: number;
};

export type RequestCounts = { api: number; graphql: number; raw: number };
export type Answer = { status: number; body: unknown };

const MAX_RETRIES = 3;
// GitHub's advice when a secondary limit names no wait: at least a minute.
const DEFAULT_RETRY_AFTER_S = 60;

/** Where GraphQL sits beside a REST base URL (api.github.com/graphql; Enterprise: /api/graphql beside /api/v3). */
export function graphqlUrlOf(apiUrl: string): string {
  const base = apiUrl.replace(/\/+$/, '');
  return base.endsWith('/api/v3') ? `${base.slice(0, -3)}/graphql` : `${base}/graphql`;
}

export class GitHubClient {
  readonly requests: RequestCounts = { api: 0, graphql: 0, raw: 0 };
  readonly withToken: boolean;
  readonly signal?: AbortSignal;
  private readonly fetch: typeof fetch;
  private readonly apiUrl: string;
  private readonly rawUrl: string;
  private readonly headers: Record<string, string>;
  private readonly slots: InFlight;
  private readonly maxRetryWaitMs: number;
  private pause: Promise<void> | null = null;
  private readonly live = new Set<AbortController>();

  constructor(access: GitHubAccess) {
    this.fetch = access.fetch;
    this.apiUrl = access.apiUrl.replace(/\/+$/, '');
    this.rawUrl = access.rawUrl.replace(/\/+$/, '');
    this.withToken = Boolean(access.token);
    this.signal = access.signal;
    this.headers = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...(access.token ? { authorization: `Bearer ${access.token}` } : {}),
    };
    this.slots = new InFlight(access.maxInFlight ?? 16, access.signal);
    this.maxRetryWaitMs = access.maxRetryWaitMs ?? 60_000;
    access.signal?.addEventListener('abort', () => this.live.forEach((request) => request.abort()), { once: true });
  }

  /** GETs an API path (`/repos/…`); statuses in `accept` come back as they are, other failures throw. */
  async get(path: string, what: string, accept: readonly number[] = []): Promise<Answer> {
    return this.answer(`${this.apiUrl}${path}`, { headers: this.headers }, what, accept);
  }

  /** Sends `body` as JSON to an API path (a push's writes); statuses in `accept` come back as they are. */
  async write(method: 'POST' | 'PATCH', path: string, body: unknown, what: string, accept: readonly number[] = []): Promise<Answer> {
    const init = { method, headers: { ...this.headers, 'content-type': 'application/json' }, body: JSON.stringify(body) };
    return this.answer(`${this.apiUrl}${path}`, init, what, accept);
  }

  private async answer(url: string, init: RequestInit, what: string, accept: readonly number[]): Promise<Answer> {
    return this.send('api', url, init, what, async (response) => {
      // A rate limit or a refused token is never an answer a caller expects, whatever its status.
      if (!response.ok && (refusal(response, this.withToken) || !accept.includes(response.status))) {
        throw await failure(response, what, this.withToken);
      }
      return { status: response.status, body: await jsonOf(response, what) };
    });
  }

  /** Runs a GraphQL query; its `errors` come back with its `data`, except a rate limit, which throws. */
  async graphql(query: string, what: string): Promise<{ data: unknown; errors: { type?: string; message?: string }[] }> {
    const init = { method: 'POST', headers: { ...this.headers, 'content-type': 'application/json' }, body: JSON.stringify({ query }) };
    return this.send('graphql', graphqlUrlOf(this.apiUrl), init, what, async (response) => {
      if (!response.ok) throw await failure(response, what, this.withToken);
      const body = (await jsonOf(response, what)) as { data?: unknown; errors?: unknown } | null;
      const errors = Array.isArray(body?.errors) ? (body.errors as { type?: string; message?: string }[]) : [];
      if (errors.some((error) => error?.type === 'RATE_LIMITED')) throw new RateLimitError(resetOf(response), this.withToken);
      return { data: body?.data ?? null, errors };
    });
  }

  /** A file's bytes from the raw host (null when it has none), refused past `maxBytes` as not what was listed. */
  async raw(path: string, maxBytes: number, file: string): Promise<Uint8Array | null> {
    return this.send('raw', `${this.rawUrl}${path}`, {}, file, async (response) => {
      if (response.status === 404) return null;
      if (!response.ok) throw await failure(response, file, this.withToken);
      return readCappedBody(response, maxBytes, () => new CorruptFileError(file));
    });
  }

  private async send<T>(kind: keyof RequestCounts, url: string, init: RequestInit, what: string, read: (response: Response) => Promise<T>): Promise<T> {
    const run = this.fetch;
    return this.slots.run(async () => {
      for (let attempt = 0; ; attempt++) {
        if (this.pause) await this.pause;
        if (this.signal?.aborted) throw new ImportCancelledError();
        this.requests[kind]++;
        // Each request its own signal, aborted with the import's: Node's fetch leaves a listener on the signal it is
        // given until the response is collected, and thousands of them on one shared signal is a leak warning.
        const own = new AbortController();
        this.live.add(own);
        try {
          let response: Response;
          try {
            response = await run(url, { ...init, signal: own.signal });
          } catch (error) {
            if (this.signal?.aborted) throw new ImportCancelledError();
            throw new OfflineError({ cause: error });
          }
          const waitS = await secondaryWait(response);
          if (waitS === null) return await readOrCancel(this.signal, () => read(response));
          await response.body?.cancel();
          if (waitS * 1000 > this.maxRetryWaitMs || attempt >= MAX_RETRIES) throw new SecondaryLimitError(waitS);
          // One pause for every request: the others would be refused too.
          this.pause ??= sleep(waitS * 1000, this.signal).finally(() => (this.pause = null));
        } finally {
          this.live.delete(own);
        }
      }
    });
  }
}

/** Seconds a refused request asks to wait (a secondary limit, or the raw host's 429), or null if it was not one. */
async function secondaryWait(response: Response): Promise<number | null> {
  if (response.status !== 403 && response.status !== 429) return null;
  if (response.headers.get('x-ratelimit-remaining') === '0') return null;
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && /^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim());
  if (response.status === 429) return DEFAULT_RETRY_AFTER_S;
  const message = await response.clone().text().catch(() => '');
  return /secondary rate limit/i.test(message) ? DEFAULT_RETRY_AFTER_S : null;
}

/** The rate limit or bad token a failed answer means, if it means one. */
function refusal(response: Response, withToken: boolean): Error | null {
  if ((response.status === 403 || response.status === 429) && response.headers.get('x-ratelimit-remaining') === '0') {
    return new RateLimitError(resetOf(response), withToken);
  }
  return response.status === 401 ? new BadTokenError() : null;
}

async function failure(response: Response, what: string, withToken: boolean): Promise<Error> {
  const refused = refusal(response, withToken);
  if (refused) return refused;
  const message = await messageOf(response);
  return new UnexpectedAnswerError(what, `${response.status}${message ? `: ${message}` : ''}`, response.status);
}

/** The message of a GitHub error body, if it has one. */
export async function messageOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    return typeof message === 'string' ? message : '';
  } catch {
    return text.slice(0, 200);
  }
}

function resetOf(response: Response): Date {
  const reset = Number(response.headers.get('x-ratelimit-reset'));
  return new Date(Number.isFinite(reset) && reset > 0 ? reset * 1000 : Date.now() + 3600_000);
}

function jsonOf(response: Response, what: string): Promise<unknown> {
  return readJsonBody(response, () => new UnexpectedAnswerError(what, `${response.status}, not JSON`, response.status));
}

// A body that stops because the import was cancelled is a cancel, not a network failure.
async function readOrCancel<T>(signal: AbortSignal | undefined, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (signal?.aborted) throw new ImportCancelledError();
    if (error instanceof TypeError) throw new OfflineError({ cause: error });
    throw error;
  }
}
