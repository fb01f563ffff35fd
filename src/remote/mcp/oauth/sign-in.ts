// Signing in to an MCP server that answered 401, with the SDK's own OAuth flow (auth()): the server's
// WWW-Authenticate names its protected-resource metadata, which names the authorization server; its metadata gives
// the endpoints; Conch registers itself (dynamic registration) and sends the person to the authorization URL with a
// PKCE challenge and a fresh `state`. The page opens that URL (a popup) and hands back the callback URL it returned
// to; its `state` must be the one sent, and its code is exchanged for tokens, which the provider stores. Loaded on
// first use (the SDK's auth module is not in the page's initial JavaScript).
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpServerConfig } from '../types';
import type { McpOAuthProvider } from './provider';

export type McpSignInOptions = {
  fetch: typeof fetch;
  /** Shows the person the authorization URL; resolves with the callback URL it came back to (with code and state). */
  openAuthorization(url: URL): Promise<URL>;
};

/** Signs in to `config`'s server and stores its tokens; throws an error for the person when it cannot. */
export async function signInToMcp(config: McpServerConfig, provider: McpOAuthProvider, options: McpSignInOptions): Promise<void> {
  const { resourceMetadataUrl, scope } = await challengeOf(config, options.fetch);
  const flow = { serverUrl: config.url, resourceMetadataUrl, scope, fetchFn: options.fetch };
  let authorizationUrl: URL | undefined;
  provider.onAuthorizationUrl = (url) => (authorizationUrl = url);
  const started = await auth(provider, flow).catch((error: unknown) => {
    const advice = resourceMetadataUrl ? '' : noOAuthAdvice;
    throw new Error(`Signing in to the MCP server "${config.name}" failed: ${advice}${messageOf(error)}`);
  }).finally(() => (provider.onAuthorizationUrl = undefined));
  // A refresh token that still worked: no one needs to be asked.
  if (started === 'AUTHORIZED') return;
  if (!authorizationUrl) throw new Error(`Signing in to the MCP server "${config.name}" failed: its authorization server gave no authorization URL.`);
  const callback = await options.openAuthorization(authorizationUrl);
  const authorizationCode = codeOf(callback, provider.pendingState(), config.name);
  await auth(provider, { ...flow, authorizationCode }).catch((error: unknown) => {
    throw new Error(`Signing in to the MCP server "${config.name}" failed when its code was exchanged for a token: ${messageOf(error)}. Sign in again.`);
  });
}

/** The code of the authorization server's answer, once its `state` is the one this sign-in sent. */
export function codeOf(callback: URL, expectedState: string | undefined, serverName: string): string {
  const params = callback.searchParams;
  if (!expectedState || params.get('state') !== expectedState) {
    throw new Error(`The sign-in answer for the MCP server "${serverName}" was refused: it is not the answer to the sign-in Conch started (its state differs). Sign in again.`);
  }
  const error = params.get('error');
  if (error) {
    const description = params.get('error_description');
    throw new Error(`The MCP server "${serverName}" refused the sign-in (${error}${description ? `: ${description}` : ''}). Sign in again, or check the server.`);
  }
  const code = params.get('code');
  if (!code) throw new Error(`The sign-in answer for the MCP server "${serverName}" has no code. Sign in again.`);
  return code;
}

// What the server's 401 says about where to sign in. A server that does not answer 401 here leaves discovery to the
// well-known URLs (auth() tries them).
async function challengeOf(config: McpServerConfig, fetchFn: typeof fetch): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const headers = new Headers(Object.fromEntries(config.headers.map((h) => [h.name, h.value])));
  headers.set('content-type', 'application/json');
  headers.set('accept', 'application/json, text/event-stream');
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'conch', version: '0.1.0' } } };
  try {
    const response = await fetchFn(config.url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    await response.body?.cancel().catch(() => undefined);
    if (response.status !== 401) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { resourceMetadataUrl, scope };
  } catch {
    return {};
  }
}

const noOAuthAdvice = 'it may not offer OAuth sign-in (its 401 names no authorization server, and none was found at its ' +
  'well-known addresses). If it takes a token instead, edit the server and add it as a header (Authorization: Bearer …). ';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
