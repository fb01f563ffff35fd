// The page's side of the service worker (src/service-worker/sw.ts): registering it, the one reload that makes a
// page from a host without COOP/COEP headers cross-origin isolated (the worker adds them), and the "Conch was
// updated" notice. Two rules keep reloads safe: at most one automatic reload per tab (remembered in
// sessionStorage; without sessionStorage, none), and never one while the agent runs.

/** The part of the browser this needs (tests pass stand-ins). */
export type ServiceWorkerHost = {
  /** navigator.serviceWorker; undefined where service workers are unavailable (then nothing happens). */
  container: ServiceWorkerContainerLike | undefined;
  /** globalThis.crossOriginIsolated at load. */
  isolated: boolean;
  /** sessionStorage, or undefined when it cannot be used. */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined;
  reload(): void;
  /** The service worker's URL (dist/sw.js beside index.html). */
  scriptUrl: string;
};

type WorkerLike = { state: string; postMessage(message: unknown): void; addEventListener(type: 'statechange', listener: () => void): void };
type RegistrationLike = {
  waiting: WorkerLike | null;
  installing: WorkerLike | null;
  addEventListener(type: 'updatefound', listener: () => void): void;
};
export type ServiceWorkerContainerLike = {
  readonly controller: unknown;
  register(url: string, options: { scope: string }): Promise<RegistrationLike>;
  addEventListener(type: 'controllerchange', listener: () => void): void;
};

/** The sessionStorage key saying this tab already reloaded once to become cross-origin isolated. */
export const ISOLATION_RELOAD_KEY = 'conch-isolation-reload';

export class ServiceWorkerClient {
  /** A new version is installed and waits: the notice offers to reload into it. */
  updateReady = $state(false);
  private registration: RegistrationLike | undefined;
  private updating = false;

  constructor(
    private readonly host: ServiceWorkerHost,
    /** False while the agent runs: no reload then. */
    private readonly canReload: () => boolean,
  ) {}

  /** Registers the service worker once `ready` settles (at once when the page still needs isolation). */
  async start(ready: Promise<unknown> = Promise.resolve()): Promise<void> {
    const { container, isolated, storage } = this.host;
    if (!container) return;
    if (isolated) storage?.removeItem(ISOLATION_RELOAD_KEY);
    else ready = Promise.resolve(); // the page works better isolated: no reason to wait
    await ready.catch(() => undefined);
    container.addEventListener('controllerchange', () => this.controllerChanged());
    let registration: RegistrationLike;
    try {
      registration = await container.register(this.host.scriptUrl, { scope: './' });
    } catch {
      return; // blocked or unsupported here: the page goes on as it is
    }
    this.registration = registration;
    if (registration.waiting && container.controller) this.updateReady = true;
    registration.addEventListener('updatefound', () => {
      const installing = registration.installing;
      installing?.addEventListener('statechange', () => {
        if (installing.state === 'installed' && container.controller) this.updateReady = true;
      });
    });
    // Controlled already (an earlier visit) yet not isolated: the worker's headers did not reach this load.
    if (!isolated && container.controller) this.reloadForIsolation();
  }

  /** Reloads into the waiting version; false (nothing done) while the agent runs. */
  applyUpdate(): boolean {
    if (!this.canReload()) return false;
    const waiting = this.registration?.waiting;
    if (!waiting) {
      this.host.reload();
      return true;
    }
    this.updating = true;
    waiting.postMessage({ type: 'skip-waiting' }); // it takes over; controllerchange then reloads
    return true;
  }

  private controllerChanged(): void {
    if (this.updating) this.host.reload();
    else if (!this.host.isolated) this.reloadForIsolation();
  }

  private reloadForIsolation(): void {
    const storage = this.host.storage;
    if (!storage || storage.getItem(ISOLATION_RELOAD_KEY) !== null || !this.canReload()) return;
    storage.setItem(ISOLATION_RELOAD_KEY, String(Date.now()));
    this.host.reload();
  }
}

/** The browser's own host, or undefined outside a built page (dev server, tests). */
export function browserServiceWorkerHost(): ServiceWorkerHost | undefined {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || typeof location === 'undefined') return undefined;
  let storage: ServiceWorkerHost['storage'];
  try {
    storage = globalThis.sessionStorage;
    storage.getItem(ISOLATION_RELOAD_KEY);
  } catch {
    storage = undefined;
  }
  return {
    container: 'serviceWorker' in navigator ? (navigator.serviceWorker as unknown as ServiceWorkerContainerLike) : undefined,
    isolated: globalThis.crossOriginIsolated === true,
    storage,
    reload: () => location.reload(),
    scriptUrl: new URL('sw.js', document.baseURI).href,
  };
}
