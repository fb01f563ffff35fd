// Conch's service worker (built into dist/sw.js by build/service-worker.ts, off in dev). It precaches the whole
// build (the app shell and every lazy chunk: the shell engine, the QuickJS WebAssembly, the editor, the terminal,
// the provider adapters), so after one visit the page loads and the embedded runtime runs with no network; it adds
// the cross-origin isolation headers to what it serves; and it waits, once installed as an update, until the page
// asks it to take over (the "Conch was updated" notice), so a running agent is never reloaded under the person.
//
// Hand-written rather than Workbox (vite-plugin-pwa): it must rewrite every response's headers, which Workbox's
// generated worker does not do, and the rest is about sixty lines.

import { cacheName, handles, isOldCache, withIsolationHeaders } from './responses';

declare const __CONCH_PRECACHE__: string[];
declare const __CONCH_VERSION__: string;

type ExtendableEvent = Event & { waitUntil(work: Promise<unknown>): void };
/** The Static Routing API (Chromium): rules tried in order before the worker is woken for a request. */
type RouterRule = { condition: { urlPattern?: object; requestMode?: RequestMode }; source: 'network' | 'fetch-event' };
/** Not in TypeScript's DOM library yet; present where addRoutes is. */
declare const URLPattern: (new (init: { origin: string }) => object) | undefined;
type InstallEvent = ExtendableEvent & { addRoutes?(rules: RouterRule[]): Promise<void> };
type FetchEvent = ExtendableEvent & { request: Request; respondWith(response: Promise<Response>): void };
type WorkerScope = {
  location: Location;
  registration: { scope: string };
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const scope = self as unknown as WorkerScope;
const CACHE = cacheName(__CONCH_VERSION__);
const INDEX = new URL('index.html', scope.registration.scope).href;

scope.addEventListener('install', (event: InstallEvent) => {
  // Requests to other origins (the provider, GitHub's hosts, MCP servers) go straight to the network: waking this
  // worker for each, only to let it pass, cost ~0.8 ms a request (1.6 s of a 2,000-file import from GitHub).
  if (event.addRoutes && typeof URLPattern === 'function') {
    event.waitUntil(event.addRoutes([
      { condition: { urlPattern: new URLPattern({ origin: scope.location.origin }) }, source: 'fetch-event' },
      { condition: { requestMode: 'cors' }, source: 'network' },
    ]).catch(() => undefined));
  }
  // no-cache: revalidated with the server, so a stale HTTP cache never mixes builds.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(__CONCH_PRECACHE__.map((path) => new Request(new URL(path, scope.registration.scope), { cache: 'no-cache' })))));
});

scope.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => isOldCache(name, __CONCH_VERSION__)).map((name) => caches.delete(name))))
      .then(() => scope.clients.claim()),
  );
});

scope.addEventListener('message', (event) => {
  if (event.data?.type === 'skip-waiting') void scope.skipWaiting();
});

scope.addEventListener('fetch', (event) => {
  if (!handles(event.request, scope.location.origin)) return;
  event.respondWith(respond(event.request));
});

/** Cache first (the build's files never change under one name); a page navigation gets the cached app shell. */
async function respond(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  const cached = request.mode === 'navigate' ? await cache.match(INDEX) : await cache.match(request);
  if (cached) return withIsolationHeaders(cached);
  return withIsolationHeaders(await fetch(request));
}
