// The app's OAuth callback page for MCP sign-in (its address: oauth-callback-url.ts; no second build input).
// Opened in the sign-in popup, it hands the URL it was called with (code and state) to the page that started the
// sign-in, then closes. The page is cross-origin isolated (COOP same-origin), so once the popup has
// been to the authorization server it is no longer the opener's: a BroadcastChannel of this origin carries the
// answer, and postMessage to the opener (checked against this origin) where the opener is still there.
import { isMcpOAuthCallback } from './oauth-callback-url';

const CHANNEL = 'conch-mcp-oauth';
const MESSAGE_TYPE = 'conch-mcp-oauth-callback';

type CallbackMessage = { type: typeof MESSAGE_TYPE; url: string };

/** The callback page's whole job: hand the answer to the page that signs in, say so, and close. */
export function deliverMcpOAuthCallback(win: Window, body: HTMLElement): void {
  const message: CallbackMessage = { type: MESSAGE_TYPE, url: win.location.href };
  try {
    (win.opener as Window | null)?.postMessage(message, win.location.origin);
  } catch {
    // An opener of another origin: the channel below still carries the answer.
  }
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage(message);
  channel.close();
  body.textContent = 'Signed in. You can close this window and go back to Conch.';
  win.close();
}

/** Resolves with the next callback URL handed back to `win` (by either way); rejects on `signal` or after `timeoutMs`. */
export function waitForMcpOAuthCallback(win: Window, signal: AbortSignal, timeoutMs: number): Promise<URL> {
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel(CHANNEL);
    const finish = (outcome: () => void) => {
      clearTimeout(timer);
      win.removeEventListener('message', onWindowMessage);
      channel.close();
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const accept = (data: unknown) => {
      const url = callbackUrlOf(data, win.location.origin);
      if (url) finish(() => resolve(url));
    };
    const onWindowMessage = (event: MessageEvent) => {
      if (event.origin === win.location.origin) accept(event.data);
    };
    const onAbort = () => finish(() => reject(new Error('The sign-in was cancelled.')));
    const timer = setTimeout(() => finish(() => reject(new Error(`The sign-in was not finished within ${Math.round(timeoutMs / 60_000)} minutes. Sign in again.`))), timeoutMs);
    channel.onmessage = (event) => accept(event.data);
    win.addEventListener('message', onWindowMessage);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

// Only a callback of this origin, in the message shape the callback page sends, is taken.
function callbackUrlOf(data: unknown, origin: string): URL | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Partial<CallbackMessage>;
  if (message.type !== MESSAGE_TYPE || typeof message.url !== 'string') return undefined;
  try {
    const url = new URL(message.url);
    return url.origin === origin && isMcpOAuthCallback(url) ? url : undefined;
  } catch {
    return undefined;
  }
}
