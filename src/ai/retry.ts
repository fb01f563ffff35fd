// Conch retries failed requests itself (the SDKs are told maxRetries: 0) so it can tell the person it is retrying.

export type RetryPolicy = {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Delay before the first retry; doubles each time. Injectable so tests run fast. */
  baseDelayMs: number;
  /** A provider asking for a longer wait than this is not retried: the person is told instead. */
  maxDelayMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60_000 };

/** The wait before retry number `retry` (1-based): the provider's `retry-after` if given, else exponential with ±25% jitter. */
export function retryDelay(retry: number, policy: RetryPolicy, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.max(0, Math.round(retryAfterMs));
  const exponential = policy.baseDelayMs * 2 ** (retry - 1);
  const jitter = 1 + (random() * 2 - 1) * 0.25;
  return Math.round(Math.min(exponential * jitter, policy.maxDelayMs));
}

/** Resolves after `ms`, or early (returning false) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
