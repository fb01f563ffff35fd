// The sandbox's state as the top bar shows it (AppState.boot).

export type BootView = {
  state: 'booting' | 'ready' | 'failed';
  kind: 'webcontainer' | 'embedded' | null;
  /** Why this runtime (e.g. the WebContainer fallback reason), or why it failed. */
  detail: string;
  canRetryWebContainer: boolean;
  /** The retry button's label when it is not "Try WebContainer again" (e.g. WebContainer waits to be asked for). */
  retryLabel?: string;
  /** Which engine the embedded runtime's `node` runs on, and why (the sandbox frame's probe); absent until known. */
  nodeEngine?: { engine: 'browser' | 'quickjs'; reason: string };
};
