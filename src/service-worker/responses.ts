// What the service worker does with a request, as plain functions (tested in Node): it handles only GETs of its own
// origin (provider calls, SSE streams and the npm registry go straight to the network), and every response it
// serves carries the page's cross-origin isolation headers, from their one source, so a static host that sends none
// still gets a cross-origin isolated page.

import { STATIC_HOST_HEADERS } from '../runtime/cross-origin-isolation';

/** True for the requests the service worker answers: same-origin GETs. */
export function handles(request: Pick<Request, 'method' | 'url'>, origin: string): boolean {
  if (request.method !== 'GET') return false;
  try {
    return new URL(request.url).origin === origin;
  } catch {
    return false;
  }
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** `response` with the isolation headers added (a new Response: cached and fetched ones are immutable). */
export function withIsolationHeaders(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'error') return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(STATIC_HOST_HEADERS)) headers.set(name, value);
  return new Response(NULL_BODY_STATUS.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** The cache of one build: a new build gets a new one, and the old ones are deleted when it activates. */
export function cacheName(version: string): string {
  return `conch-${version}`;
}

/** True for a cache of an earlier build (never another app's cache on the same origin). */
export function isOldCache(name: string, version: string): boolean {
  return name.startsWith('conch-') && name !== cacheName(version);
}
