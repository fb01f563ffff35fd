// Node's fetch made to act like a page's on another origin, for tests: a cross-origin answer without
// Access-Control-Allow-Origin is a bare TypeError (as a browser gives it), and headers the server does not expose are
// hidden. A no-cors request gets through (its answer opaque), as in a browser.
/** A fetch that enforces CORS as a page at `origin` sees it. */
export function browserFetch(origin: string): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
    const allowed = response.headers.get('access-control-allow-origin');
    if (allowed !== '*' && allowed !== origin) {
      await response.body?.cancel();
      throw new TypeError('Failed to fetch');
    }
    const exposed = new Set((response.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(',').map((h) => h.trim()));
    const headers = new Headers();
    response.headers.forEach((value, name) => {
      if (SAFELISTED.has(name) || exposed.has(name)) headers.set(name, value);
    });
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

const SAFELISTED = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
