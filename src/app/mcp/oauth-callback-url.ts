// Where MCP sign-in comes back to: index.html itself with `?mcp-oauth-callback`, so it is served wherever the app
// is (any static host, any base path, offline through the service worker's app shell). Apart from the callback
// page's work (oauth-callback.ts) so the page's first script can tell it is the callback without loading that.

const QUERY_FLAG = 'mcp-oauth-callback';

/** The callback URL registered with every MCP authorization server: this page's address with the flag. */
export function mcpOAuthRedirectUrl(location: Pick<Location, 'origin' | 'pathname'>): string {
  return `${location.origin}${location.pathname}?${QUERY_FLAG}`;
}

/** True when the page was opened as the OAuth callback (it must not start the app). */
export function isMcpOAuthCallback(location: Pick<Location, 'search'>): boolean {
  return new URLSearchParams(location.search).has(QUERY_FLAG);
}
