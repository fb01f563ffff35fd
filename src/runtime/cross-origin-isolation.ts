// The page's cross-origin isolation, in one place. WebContainers (and the embedded runtime's cross-thread stop flag)
// need SharedArrayBuffer, which needs a cross-origin isolated page: COOP same-origin plus a COEP. The one COEP value
// below drives the dev and preview servers (vite.config.ts), the static hosts' files (public/_headers and
// vercel.json, written from here by `npm run sync:headers` and checked by a test), WebContainer.boot({ coep }), and
// the service worker (src/service-worker), which adds these headers to everything it serves for hosts that send none.
//
// Why require-corp and not credentialless: credentialless lets a preview load third-party assets that send no CORP
// or CORS headers, but Safari does not support it, so a credentialless page is not isolated there (no WebContainer,
// no SharedArrayBuffer). Static hosts send one header to every browser, and boot({ coep }) must match what the page
// got, so Chromium alone cannot be given credentialless safely without something that decides per browser on both
// sides (a service worker). See README, "Hosting".

/** The Cross-Origin-Embedder-Policy of every page Conch serves, and the `coep` WebContainer boots with. */
export const COEP = 'require-corp' as const;

/** The two headers that make the page cross-origin isolated. */
export const CROSS_ORIGIN_ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': COEP,
};

/** What a static host sends with every file: isolation, plus resource policy and no MIME sniffing. */
export const STATIC_HOST_HEADERS: Readonly<Record<string, string>> = {
  ...CROSS_ORIGIN_ISOLATION_HEADERS,
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

/** public/_headers (Netlify, Cloudflare Pages). */
export function netlifyHeadersFile(): string {
  const lines = Object.entries(STATIC_HOST_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
  return [
    '# Written by `npm run sync:headers` from src/runtime/cross-origin-isolation.ts; edit that file, not this one.',
    '# Netlify and Cloudflare Pages: Conch needs a cross-origin isolated page (SharedArrayBuffer for WebContainers).',
    '/*',
    ...lines,
    '',
  ].join('\n');
}

/** vercel.json (Vercel). */
export function vercelConfigFile(): string {
  const headers = Object.entries(STATIC_HOST_HEADERS).map(([key, value]) => ({ key, value }));
  return `${JSON.stringify({ headers: [{ source: '/(.*)', headers }] }, null, 2)}\n`;
}
