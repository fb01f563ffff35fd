// Turns whatever a provider SDK threw into one of a few failures a person can act on. The SDKs are only known here by
// the shape of their errors (duck typing), so this file imports none of them and stays testable with plain objects.

export type FailureKind =
  | 'auth'
  | 'quota'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'context_overflow'
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'bad_request'
  | 'model_not_found'
  | 'stream'
  | 'unknown';

export type ProviderFailure = {
  kind: FailureKind;
  /** Worth another attempt of the same request (only before any content has arrived). */
  retryable: boolean;
  /** What the provider asked us to wait, from `retry-after-ms`, `retry-after` or Gemini's RetryInfo. */
  retryAfterMs?: number;
  /** Written for the person: what happened and what to do. */
  message: string;
};

export type FailureContext = { providerLabel: string; baseUrl?: string };

/** Facts pulled out of an SDK error; every field optional because each SDK fills different ones. */
export type ErrorFacts = {
  status?: number;
  headers?: HeaderSource;
  providerText?: string;
  code?: string;
  isNetwork?: boolean;
  isTimeout?: boolean;
  isAbort?: boolean;
  /** A wait the provider put in the body rather than a header (Gemini's RetryInfo). */
  bodyRetryAfterMs?: number;
};

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

const CONTEXT_OVERFLOW = [
  /prompt is too long/i,
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context window/i,
  /input token count.*exceeds the maximum/i,
  /exceeds the maximum number of tokens/i,
  /too many (input )?tokens/i,
  /request too large/i,
];

/** Classifies an error thrown by a provider SDK (or by the adapter while reading its stream). */
export function classifyProviderError(error: unknown, context: FailureContext): ProviderFailure {
  return classifyFacts(factsOf(error), context);
}

/** Classifies already-extracted facts; split out so each rule can be unit-tested without an SDK. */
export function classifyFacts(facts: ErrorFacts, context: FailureContext): ProviderFailure {
  const provider = context.providerLabel;
  const text = facts.providerText?.trim() || '';
  const quoted = text ? ` The provider said: "${text}"` : '';
  const status = facts.status;

  if (facts.isAbort) return { kind: 'aborted', retryable: false, message: 'Stopped before the reply finished.' };

  if (isContextOverflow(text, facts.code)) {
    return {
      kind: 'context_overflow',
      retryable: false,
      message:
        `The conversation no longer fits the model's context window (${text || `HTTP ${status}`}). ` +
        'Compact it harder (keep less of the recent conversation), or pick a model with a larger context window.',
    };
  }
  if (status === 401 || status === 403 || isRejectedKey(text, facts.code)) {
    return {
      kind: 'auth',
      retryable: false,
      message: `${provider} rejected the key (HTTP ${status}). Check the API key in settings.${quoted}`,
    };
  }
  if (facts.code === 'insufficient_quota') {
    return {
      kind: 'quota',
      retryable: false,
      message: `${provider} says this account is out of credit or quota. Check the plan and billing details in your ${provider} account, then try again.${quoted}`,
    };
  }
  const retryAfterMs = retryAfterOf(facts.headers) ?? facts.bodyRetryAfterMs;
  if (status === 429) {
    return {
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs,
      message: `${provider} is rate-limiting requests (HTTP 429). Wait a little and try again.${quoted}`,
    };
  }
  if (status === 529 || /overloaded/i.test(`${facts.code ?? ''} ${text}`)) {
    return {
      kind: 'overloaded',
      retryable: true,
      retryAfterMs,
      message: `${provider} is overloaded right now. Try again in a moment.${quoted}`,
    };
  }
  // An error sent inside a 200 stream has no status; its type names the server error instead.
  if ((status !== undefined && status >= 500) || facts.code === 'server_error' || facts.code === 'api_error') {
    return {
      kind: 'server',
      retryable: true,
      retryAfterMs,
      message: `${provider} had a server error${status ? ` (HTTP ${status})` : ''}. Try again in a moment.${quoted}`,
    };
  }
  if (status === 408 || facts.isTimeout) {
    return { kind: 'timeout', retryable: true, retryAfterMs, message: `${provider} did not answer in time. Try again.` };
  }
  if (isModelNotFound(status, text, facts.code)) {
    return {
      kind: 'model_not_found',
      retryable: false,
      message: `${provider} does not offer this model to this key (HTTP ${status}). Pick another model in settings.${quoted}`,
    };
  }
  if (status !== undefined && status >= 400) {
    return {
      kind: 'bad_request',
      retryable: false,
      message: `${provider} refused the request (HTTP ${status}).${quoted}`,
    };
  }
  if (facts.isNetwork) {
    return { kind: 'network', retryable: false, message: networkFailureMessage(provider, context.baseUrl) };
  }
  return {
    kind: 'unknown',
    retryable: false,
    message: `The request to ${provider} failed: ${text || 'unknown error'}. Try again.`,
  };
}

export function isContextOverflow(text: string, code?: string): boolean {
  if (code === 'context_length_exceeded') return true;
  return CONTEXT_OVERFLOW.some((pattern) => pattern.test(text));
}

/** A 404 that names a model: OpenAI's `model_not_found`, Anthropic's `not_found_error` ("model: x"), Gemini's NOT_FOUND. */
function isModelNotFound(status: number | undefined, text: string, code?: string): boolean {
  if (code === 'model_not_found') return true;
  return status === 404 && /model/i.test(text);
}

/** Gemini answers a bad key with HTTP 400 INVALID_ARGUMENT (reason API_KEY_INVALID), so the status alone misses it. */
function isRejectedKey(text: string, code?: string): boolean {
  return (
    code === 'API_KEY_INVALID' || code === 'authentication_error' || code === 'invalid_api_key' || /API key not valid/i.test(text)
  );
}

/** Why a fetch failed in the browser is hidden from scripts; say what the usual causes are and, for local servers, what to set. */
export function networkFailureMessage(provider: string, baseUrl?: string): string {
  const local = localServerHint(baseUrl);
  if (local) return `Could not reach ${provider} at ${baseUrl}. ${local}`; // a server on this machine works offline too
  if (isOffline()) {
    return (
      `You are offline: ${provider} cannot be reached. Conch itself keeps working (files, terminal, node, and npm from ` +
      'its cache); send again once you are back online, or use a model served on this machine (localhost).'
    );
  }
  return (
    `Could not reach ${provider}${baseUrl ? ` at ${baseUrl}` : ''}: the network request failed or the browser ` +
    'refused it (CORS). Check your connection and the base URL, then try again.'
  );
}

/** The browser says it has no network (navigator.onLine, in pages and workers; absent elsewhere). */
function isOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

function localServerHint(baseUrl?: string): string | undefined {
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  const local = ['localhost', '127.0.0.1', '[::1]', '0.0.0.0'].includes(url.hostname);
  if (!local) return undefined;
  if (url.port === '11434') {
    return (
      'Is Ollama running? The browser also needs Ollama to allow this page: restart it with ' +
      'OLLAMA_ORIGINS=* (or this page\'s origin), e.g. `OLLAMA_ORIGINS=* ollama serve`.'
    );
  }
  if (url.port === '1234') {
    return 'Is the LM Studio server running? Enable "CORS" in LM Studio\'s server settings so the browser may call it.';
  }
  return (
    'Is the server running? It must also send CORS headers (Access-Control-Allow-Origin) so the browser may call it ' +
    'from this page.'
  );
}

/** Milliseconds to wait from `retry-after-ms`, or `retry-after` as seconds or an HTTP date; undefined when absent. */
export function retryAfterOf(headers: HeaderSource | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headerValue(headers, 'retry-after-ms'));
  if (headerValue(headers, 'retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headerValue(headers, 'retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  if (Number.isFinite(date)) return Math.max(0, date - now);
  return undefined;
}

function headerValue(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const value = record[name] ?? record[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Gemini puts the wait in the error body (`"retryDelay": "13s"`) instead of a header. */
function retryDelayInText(text: string): number | undefined {
  const match = /retryDelay"?\s*[:=]\s*"?(\d+(?:\.\d+)?)s/i.exec(text);
  return match ? Number(match[1]) * 1000 : undefined;
}

/** Reads status, headers, provider text and flags off an error from any of the three SDKs, or a fetch TypeError. */
export function factsOf(error: unknown): ErrorFacts {
  if (!(error instanceof Error) && (typeof error !== 'object' || error === null)) {
    return { providerText: String(error) };
  }
  const e = error as Error & Record<string, unknown>;
  const name = String(e.name ?? e.constructor?.name ?? '');
  const message = typeof e.message === 'string' ? e.message : '';
  const status = typeof e.status === 'number' ? e.status : undefined;
  const headers = isHeaderSource(e.headers) ? e.headers : undefined;
  const body = parsedBody(e.error) ?? parsedBody(jsonIn(message));
  const facts: ErrorFacts = {
    status,
    headers,
    providerText: body?.message ?? (stripStatusPrefix(message) || undefined),
    code: body?.code ?? (typeof e.code === 'string' ? e.code : undefined),
    bodyRetryAfterMs: body?.retryAfterMs,
  };
  if (name === 'AbortError' || name === 'APIUserAbortError' || /request was aborted/i.test(message)) facts.isAbort = true;
  else if (name === 'APIConnectionTimeoutError' || name === 'TimeoutError') facts.isTimeout = true;
  else if (
    status === undefined &&
    (name === 'APIConnectionError' ||
      e.constructor?.name === 'APIConnectionError' ||
      // The OpenAI and Anthropic SDKs keep name "Error" on their connection errors (and a build renames classes),
      // so their fixed message and the fetch TypeError they wrap are the witnesses that survive.
      /^Connection error\.?$/i.test(message) ||
      e.cause instanceof TypeError ||
      (name === 'TypeError' && /fetch|network|load failed|terminated/i.test(message)))
  ) {
    facts.isNetwork = true;
  }
  return facts;
}

function isHeaderSource(value: unknown): value is HeaderSource {
  return typeof value === 'object' && value !== null;
}

/** The `{ message, code|type|status }` inside the bodies the providers send: Anthropic nests it under `error`. */
function parsedBody(value: unknown): { message?: string; code?: string; retryAfterMs?: number } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const inner = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : record;
  const message = typeof inner.message === 'string' ? inner.message : undefined;
  // Gemini's `code` is the HTTP status (a number); its reason (API_KEY_INVALID) sits in an ErrorInfo detail.
  const details = Array.isArray(inner.details) ? (inner.details as unknown[]) : [];
  const code = [reasonIn(details), inner.code, inner.type, inner.status].find((c): c is string => typeof c === 'string');
  if (message === undefined && code === undefined) return undefined;
  const retryAfterMs = details.length > 0 ? retryDelayInText(JSON.stringify(details)) : undefined;
  return { message, code, retryAfterMs };
}

function reasonIn(details: unknown[]): string | undefined {
  for (const detail of details) {
    const reason = (detail as { reason?: unknown } | null)?.reason;
    if (typeof reason === 'string') return reason;
  }
  return undefined;
}

function jsonIn(message: string): unknown {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start));
  } catch {
    return undefined;
  }
}

/** The OpenAI/Anthropic SDKs prefix messages with the status ("429 {...}" or "429 Too many requests"). */
function stripStatusPrefix(message: string): string {
  return message.replace(/^\d{3}\s+/, '').trim();
}
