// Entry point: the app state, the page, the sandbox boot, and (in a build) the service worker. Opened as an MCP
// sign-in's callback (in the popup), the page only hands the answer back and closes.
import { mount } from 'svelte';
import { AppState } from './app/app.svelte';
import { createBrowserBoot } from './app/browser-boot';
import { browserServiceWorkerHost, ServiceWorkerClient } from './app/boot/service-worker-client.svelte';
import { isMcpOAuthCallback } from './app/mcp/oauth-callback-url';
import App from './ui/App.svelte';
import './ui/global.css';

if (isMcpOAuthCallback(location)) void import('./app/mcp/oauth-callback').then((page) => page.deliverMcpOAuthCallback(window, document.getElementById('app')!));
else startApp();

function startApp(): void {
  const app = new AppState({ bootRuntime: createBrowserBoot(), mcpSignInWindow: window });
  const serviceWorkerHost = browserServiceWorkerHost();
  const updates = serviceWorkerHost ? new ServiceWorkerClient(serviceWorkerHost, () => !app.current?.running) : null;

  mount(App, { target: document.getElementById('app')!, props: { app, updates } });
  const started = app.init();
  // An isolated page registers the worker once the session and the sandbox are up, so precaching does not compete
  // with them; one that is not isolated registers at once (it reloads into isolation as soon as the worker is ready).
  void updates?.start(started.then(whenIdle));
}

/** Resolves when the browser is next idle (or after a few seconds of being busy). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 5000 });
    else setTimeout(resolve, 1000);
  });
}
