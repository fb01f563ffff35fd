// The mock MCP server's OAuth variant: an authorization server on the same origin as the MCP endpoint, with the
// protected-resource metadata (RFC 9728), the authorization server metadata (RFC 8414), dynamic client registration
// (RFC 7591), an /authorize that redirects straight back with a code (no login page), a /token that checks PKCE S256
// and takes refresh tokens, and a /revoke (RFC 7009). The MCP endpoint asks for a bearer token this issued.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../loopback-http';

export type MockOAuthOptions = {
  /** Seconds an access token lives (default 3600); expireTokens() ends them at once. */
  expiresIn?: number;
  /** Leave revocation_endpoint out of the metadata (a server without RFC 7009). */
  noRevocation?: boolean;
};

export type MockOAuthRecords = {
  /** Each dynamic registration's client metadata, as sent. */
  registrations: Record<string, unknown>[];
  /** Each /authorize request's query, as sent. */
  authorizations: URLSearchParams[];
  /** The grant type of each successful /token request. */
  grants: string[];
  /** Each token sent to /revoke. */
  revoked: string[];
};

export type MockOAuth = MockOAuthRecords & {
  /** Answers the authorization server's paths; false when `url` is not one of them. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean>;
  /** True when the request carries a live access token this issued. */
  authorized(req: IncomingMessage): boolean;
  /** The 401 the MCP endpoint answers without a live token. */
  challenge(res: ServerResponse): void;
  /** Every access token issued so far expires now (refresh tokens stay good). */
  expireTokens(): void;
};

type Grant = { clientId: string; redirectUri: string; challenge: string; resource: string | null };

/** The authorization server of the mock whose MCP endpoint is `mcpUrl`. */
export function mockOAuth(mcpUrl: string, options: MockOAuthOptions = {}): MockOAuth {
  const origin = new URL(mcpUrl).origin;
  const resourceMetadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const clients = new Map<string, string[]>();
  const codes = new Map<string, Grant>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Map<string, string>();
  const records: MockOAuthRecords = { registrations: [], authorizations: [], grants: [], revoked: [] };
  const expiresIn = options.expiresIn ?? 3600;

  const metadata = {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    ...(options.noRevocation ? {} : { revocation_endpoint: `${origin}/revoke` }),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
  };

  const issueTokens = (clientId: string) => {
    const access = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    accessTokens.set(access, Date.now() + expiresIn * 1000);
    refreshTokens.set(refresh, clientId);
    return { access_token: access, token_type: 'Bearer', expires_in: expiresIn, refresh_token: refresh };
  };

  const token = (form: URLSearchParams, res: ServerResponse) => {
    const clientId = form.get('client_id') ?? '';
    if (!clients.has(clientId)) return json(res, 401, { error: 'invalid_client', error_description: 'unknown client_id' });
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (refreshTokens.get(refresh) !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown or revoked refresh token' });
      refreshTokens.delete(refresh);
      records.grants.push('refresh_token');
      return json(res, 200, issueTokens(clientId));
    }
    if (form.get('grant_type') !== 'authorization_code') return json(res, 400, { error: 'unsupported_grant_type' });
    const grant = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    if (!grant || grant.clientId !== clientId) return json(res, 400, { error: 'invalid_grant', error_description: 'unknown code' });
    if (grant.redirectUri !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'redirect_uri differs' });
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
      return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE: code_verifier does not match code_challenge' });
    }
    records.grants.push('authorization_code');
    return json(res, 200, issueTokens(clientId));
  };

  const authorize = (query: URLSearchParams, res: ServerResponse) => {
    records.authorizations.push(query);
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    if (!clients.get(clientId)?.includes(redirectUri)) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('unknown client or redirect_uri');
    const back = new URL(redirectUri);
    const state = query.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const challenge = query.get('code_challenge');
    if (query.get('response_type') !== 'code' || query.get('code_challenge_method') !== 'S256' || !challenge) {
      back.searchParams.set('error', 'invalid_request');
      return void res.writeHead(302, { location: back.href }).end();
    }
    const code = `code-${randomBytes(12).toString('hex')}`;
    codes.set(code, { clientId, redirectUri, challenge, resource: query.get('resource') });
    back.searchParams.set('code', code);
    res.writeHead(302, { location: back.href }).end();
  };

  return {
    ...records,
    async handle(req, res, url) {
      switch (`${req.method} ${url.pathname}`) {
        case 'GET /.well-known/oauth-protected-resource/mcp':
        case 'GET /.well-known/oauth-protected-resource':
          return json(res, 200, { resource: mcpUrl, authorization_servers: [origin], bearer_methods_supported: ['header'] });
        case 'GET /.well-known/oauth-authorization-server':
        case 'GET /.well-known/openid-configuration':
          return json(res, 200, metadata);
        case 'POST /register': {
          const body = JSON.parse((await readBody(req)) || '{}') as { redirect_uris?: unknown };
          records.registrations.push(body);
          if (!Array.isArray(body.redirect_uris) || body.redirect_uris.length === 0) return json(res, 400, { error: 'invalid_redirect_uri' });
          const clientId = `client-${randomBytes(6).toString('hex')}`;
          clients.set(clientId, body.redirect_uris.map(String));
          return json(res, 201, { ...body, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000), token_endpoint_auth_method: 'none' });
        }
        case 'GET /authorize':
          authorize(url.searchParams, res);
          return true;
        case 'POST /token':
          return token(new URLSearchParams(await readBody(req)), res);
        case 'POST /revoke': {
          const revoked = new URLSearchParams(await readBody(req)).get('token') ?? '';
          records.revoked.push(revoked);
          accessTokens.delete(revoked);
          refreshTokens.delete(revoked);
          res.writeHead(200).end();
          return true;
        }
        default:
          return false;
      }
    },
    authorized(req) {
      const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      const until = match ? accessTokens.get(match[1]!) : undefined;
      return until !== undefined && until > Date.now();
    },
    challenge(res) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': `Bearer resource_metadata="${resourceMetadataUrl}"` });
      res.end(JSON.stringify({ error: 'invalid_token', error_description: 'sign in first' }));
    },
    expireTokens() {
      for (const access of accessTokens.keys()) accessTokens.set(access, 0);
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  return true;
}
