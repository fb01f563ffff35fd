// What a sign-in to one MCP server leaves behind, and where it is kept. Tokens, the client registered by dynamic
// registration, the PKCE code verifier and the state of a sign-in under way are secrets like API keys: the app keeps
// them in its settings store only (never in exports or session files), so the store is injected.
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export type McpOAuthRecord = {
  /** The client as the authorization server registered it (dynamic client registration). */
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  /** The PKCE code verifier of the sign-in under way. */
  codeVerifier?: string;
  /** The `state` sent with the authorization request under way; the callback must bring it back. */
  state?: string;
  /** Where discovery found the authorization server, and its metadata (the revocation endpoint is in it). */
  discovery?: OAuthDiscoveryState;
};

/** Keeps each server's record (by the server's id); `undefined` forgets it. */
export interface McpOAuthStore {
  read(serverId: string): McpOAuthRecord | undefined;
  write(serverId: string, record: McpOAuthRecord | undefined): Promise<void>;
}

/** A record read back from storage: fields of the wrong shape are dropped (the SDK checks what it then sends). */
export function parseMcpOAuthRecord(value: unknown): McpOAuthRecord | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const raw = value as Record<string, unknown>;
  const record: McpOAuthRecord = {};
  if (isObjectWith(raw.client, 'client_id')) record.client = raw.client as OAuthClientInformationMixed;
  if (isObjectWith(raw.tokens, 'access_token')) record.tokens = raw.tokens as OAuthTokens;
  if (typeof raw.codeVerifier === 'string') record.codeVerifier = raw.codeVerifier;
  if (typeof raw.state === 'string') record.state = raw.state;
  if (isObjectWith(raw.discovery, 'authorizationServerUrl')) record.discovery = raw.discovery as OAuthDiscoveryState;
  return record;
}

function isObjectWith(value: unknown, key: string): boolean {
  return typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[key] === 'string';
}
