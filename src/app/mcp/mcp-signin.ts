// The app's side of MCP sign-in (OAuth): one provider per server over the settings store, given to every connection
// so a 401 is answered with the refresh token when there is one; the person's "Sign in", which runs the SDK's flow
// in the popup opened in their click (signin-on-demand.ts) and waits for the callback page's answer; and "Remove",
// which revokes the server's tokens and forgets them. Loaded with the first connection or sign-in; the sign-in flow
// (the SDK's auth module) loads on the first sign-in.
import type { McpConnection, McpConnectOptions, McpServerConfig } from '../../remote/mcp/types';
import type { McpOAuthRecord, McpOAuthStore } from '../../remote/mcp/oauth/credentials';
import { McpOAuthProvider } from '../../remote/mcp/oauth/provider';
import { forgetMcpSignIn } from '../../remote/mcp/oauth/revoke';
import { connectMcpServer } from '../../remote/mcp/on-demand';

const CALLBACK_TIMEOUT_MS = 10 * 60_000;

/** What sign-in needs from the browser page (browserSignInPage gives the real ones). */
export type McpSignInPage = {
  fetch: typeof fetch;
  /** The app's callback page (oauth-callback.ts). */
  redirectUrl: string;
  /** Opens the (empty) sign-in popup; null when the browser blocked it. Called in the person's click. */
  openPopup(): Window | null;
  /** The callback URL the popup comes back to (oauth-callback.ts's waitForMcpOAuthCallback). */
  waitForCallback(signal: AbortSignal, timeoutMs: number): Promise<URL>;
};

export type McpSignInOptions = McpSignInPage & {
  /** The sign-in records by server id, as the settings hold them now. */
  records(): Record<string, McpOAuthRecord>;
  /** Stores the changed records in the settings store. */
  storeRecords(records: Record<string, McpOAuthRecord>): Promise<void>;
  /** Defaults to the MCP client's on-demand entry. */
  connect?(config: McpServerConfig, options: McpConnectOptions): Promise<McpConnection>;
};

export class McpSignIn {
  private readonly providers = new Map<string, McpOAuthProvider>();
  private readonly store: McpOAuthStore;
  /** The sign-in under way: a new one cancels it and waits for it to settle. */
  private current: { cancel: AbortController; settled: Promise<void> } | undefined;

  constructor(private readonly options: McpSignInOptions) {
    this.store = {
      read: (id) => options.records()[id],
      write: async (id, record) => {
        const { [id]: _old, ...rest } = options.records();
        await options.storeRecords(record ? { ...rest, [id]: record } : rest);
      },
    };
  }

  /**
   * Connects with the server's OAuth provider once the person signed in to it, so its tokens are sent and refreshed.
   * Before that none is given: a 401 is then "needs sign-in" at once, where the SDK's flow would try discovery on a
   * server that may have none (a wrong header) and fail with its own words.
   */
  connect = (config: McpServerConfig, options: McpConnectOptions): Promise<McpConnection> => {
    const signedIn = this.store.read(config.id)?.tokens !== undefined;
    return (this.options.connect ?? connectMcpServer)(config, { ...options, authProvider: signedIn ? this.providerFor(config) : undefined });
  };

  /** Signs in through `popup` (opened in the person's click) and resolves once the tokens are stored; throws an error for the person. */
  signIn = (config: McpServerConfig, popup: Window): Promise<void> => {
    this.current?.cancel.abort();
    const cancel = new AbortController();
    const done = this.run(config, popup, cancel.signal, this.current?.settled ?? Promise.resolve());
    this.current = { cancel, settled: done.catch(() => undefined) };
    return done;
  };

  /** The server was removed: its tokens are revoked where the server allows it, and forgotten. */
  forget = async (config: McpServerConfig): Promise<void> => {
    this.providers.delete(config.id);
    await forgetMcpSignIn(config.id, this.store, this.options.fetch);
  };

  private async run(config: McpServerConfig, popup: Window, cancelled: AbortSignal, previous: Promise<void>): Promise<void> {
    showWaiting(popup, config.name);
    const over = new AbortController();
    const callback = this.options.waitForCallback(AbortSignal.any([cancelled, over.signal]), CALLBACK_TIMEOUT_MS);
    callback.catch(() => undefined);
    try {
      // One flow at a time: flows share a server's state and verifier, so one started again waits for the one it cancelled.
      await previous;
      const { signInToMcp } = await import('../../remote/mcp/oauth/sign-in');
      await signInToMcp(config, this.providerFor(config), {
        fetch: this.options.fetch,
        openAuthorization: (url) => {
          if (!cancelled.aborted) popup.location.href = url.href;
          return callback;
        },
      });
    } finally {
      over.abort();
      if (!popup.closed) popup.close();
    }
  }

  private providerFor(config: McpServerConfig): McpOAuthProvider {
    let provider = this.providers.get(config.id);
    if (!provider) {
      provider = new McpOAuthProvider(config.id, this.store, { redirectUrl: this.options.redirectUrl, clientName: 'Conch' });
      this.providers.set(config.id, provider);
    }
    return provider;
  }
}

// The popup is empty until discovery and registration give the authorization URL.
function showWaiting(popup: Window, serverName: string): void {
  try {
    popup.document.title = 'Signing in…';
    popup.document.body.textContent = `Opening the sign-in page of "${serverName}"…`;
  } catch {
    // Not our document (a browser that opens popups elsewhere): nothing to show.
  }
}
