// MCP sign-in as the app's MCP servers use it (loaded with them, outside the page's initial JavaScript): the sign-in
// module (mcp-signin.ts) loads with the first connection or sign-in. The popup is opened here, at once, in the
// person's click: one opened after waiting for a module or the network is blocked by the browser.
import type { McpConnectOptions, McpServerConfig } from '../../remote/mcp/types';
import type { McpSignIn, McpSignInOptions, McpSignInPage } from './mcp-signin';
import { waitForMcpOAuthCallback } from './oauth-callback';
import { mcpOAuthRedirectUrl } from './oauth-callback-url';

export type { McpSignInOptions, McpSignInPage };

/** The McpServers options that connect with sign-in, sign in (in the click) and revoke on Remove. */
export function mcpSignInOnDemand(options: McpSignInOptions) {
  let loaded: Promise<McpSignIn> | undefined;
  const load = () => (loaded ??= import('./mcp-signin').then(({ McpSignIn }) => new McpSignIn(options)));
  return {
    connect: async (config: McpServerConfig, connectOptions: McpConnectOptions) => (await load()).connect(config, connectOptions),
    signIn: async (config: McpServerConfig) => {
      const popup = options.openPopup();
      if (!popup) throw new Error(`Your browser blocked the sign-in window for "${config.name}". Allow pop-ups for this page, or press Try again.`);
      const signIn = await load().catch((error: unknown) => {
        popup.close();
        throw error;
      });
      await signIn.signIn(config, popup);
    },
    forget: async (config: McpServerConfig) => (await load()).forget(config),
  };
}

/** The sign-in popup, callback page and fetch of the page `win`. */
export function browserSignInPage(win: Window): McpSignInPage {
  return {
    fetch: (...args) => win.fetch(...args),
    redirectUrl: mcpOAuthRedirectUrl(win.location),
    openPopup: () => win.open('', '_blank', 'popup,width=520,height=720'),
    waitForCallback: (signal, timeoutMs) => waitForMcpOAuthCallback(win, signal, timeoutMs),
  };
}
