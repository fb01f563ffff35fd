// The OAuth client of one MCP server, as the SDK's transports and its auth() use it: Conch is a public client
// (no secret), registered by dynamic registration, with PKCE, and redirected back to the app's callback page.
// Everything it learns goes to the injected store. It never opens anything itself: while a connection runs, a 401
// the refresh token cannot answer leaves the authorization URL unused (the server shows "needs sign-in"); only a
// sign-in the person started (sign-in.ts) takes the URL and opens it.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthRecord, McpOAuthStore } from './credentials';

export type McpOAuthProviderOptions = {
  /** The app's callback page (the same URL on every sign-in: it is registered with the server). */
  redirectUrl: string;
  /** What the authorization server shows the person (e.g. "Conch"). */
  clientName: string;
  /** Random text for `state` (crypto.getRandomValues in the page). */
  randomState?: () => string;
};

export class McpOAuthProvider implements OAuthClientProvider {
  /** Set by a sign-in while it waits for the authorization URL; unset, a redirect is left to the person. */
  onAuthorizationUrl: ((url: URL) => void) | undefined;

  constructor(
    readonly serverId: string,
    private readonly store: McpOAuthStore,
    private readonly options: McpOAuthProviderOptions,
  ) {}

  get redirectUrl(): string {
    return this.options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName,
      redirect_uris: [this.options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  async state(): Promise<string> {
    const state = (this.options.randomState ?? randomState)();
    await this.update({ state });
    return state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.record().client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.update({ client });
  }

  tokens(): OAuthTokens | undefined {
    return this.record().tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // The sign-in is over: its verifier and state are spent.
    await this.update({ tokens, codeVerifier: undefined, state: undefined });
  }

  redirectToAuthorization(url: URL): void {
    this.onAuthorizationUrl?.(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.update({ codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.record().codeVerifier;
    if (!verifier) throw new Error('No sign-in is under way for this MCP server (its PKCE code verifier is gone): sign in again.');
    return verifier;
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.update({ discovery });
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record().discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    switch (scope) {
      case 'all':
        return this.store.write(this.serverId, undefined);
      case 'client':
        return this.update({ client: undefined });
      case 'tokens':
        return this.update({ tokens: undefined });
      case 'verifier':
        return this.update({ codeVerifier: undefined });
      case 'discovery':
        return this.update({ discovery: undefined });
    }
  }

  /** The state sent with the authorization request under way, if any. */
  pendingState(): string | undefined {
    return this.record().state;
  }

  private record(): McpOAuthRecord {
    return this.store.read(this.serverId) ?? {};
  }

  private async update(change: Partial<McpOAuthRecord>): Promise<void> {
    const next: McpOAuthRecord = { ...this.record(), ...change };
    for (const key of Object.keys(next) as (keyof McpOAuthRecord)[]) if (next[key] === undefined) delete next[key];
    await this.store.write(this.serverId, next);
  }
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
