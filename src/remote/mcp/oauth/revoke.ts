// Signing out of an MCP server (the person removed it): its tokens are revoked at the authorization server's
// revocation endpoint (RFC 7009) when its metadata names one, and forgotten either way. Plain fetch: no SDK needed.
import type { McpOAuthStore } from './credentials';

/** Forgets `serverId`'s sign-in, revoking its tokens first where the server allows; never throws. */
export async function forgetMcpSignIn(serverId: string, store: McpOAuthStore, fetchFn: typeof fetch): Promise<{ revoked: number }> {
  const record = store.read(serverId);
  if (!record) return { revoked: 0 };
  await store.write(serverId, undefined);
  // OpenID metadata has no revocation_endpoint in the SDK's type; OAuth metadata (RFC 8414) does.
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined;
  const endpoint = typeof metadata?.revocation_endpoint === 'string' ? metadata.revocation_endpoint : undefined;
  const clientId = record.client?.client_id;
  if (!endpoint || !clientId || !record.tokens) return { revoked: 0 };
  // The refresh token first: revoking it may end its access tokens too (RFC 7009 section 2.1).
  const tokens: [string | undefined, string][] = [[record.tokens.refresh_token, 'refresh_token'], [record.tokens.access_token, 'access_token']];
  let revoked = 0;
  for (const [token, hint] of tokens) {
    if (!token) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint, client_id: clientId });
    if (record.client?.client_secret) body.set('client_secret', record.client.client_secret);
    const ok = await fetchFn(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body })
      .then((response) => response.ok, () => false);
    if (ok) revoked++;
  }
  return { revoked };
}
