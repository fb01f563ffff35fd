import { describe, expect, it } from 'vitest';
import { ISOLATION_RELOAD_KEY, ServiceWorkerClient, type ServiceWorkerContainerLike, type ServiceWorkerHost } from './service-worker-client.svelte';

/** A browser stand-in: a container whose registration the test drives, a sessionStorage, and a reload counter. */
function browser(options: { isolated?: boolean; controlled?: boolean; storage?: boolean; registerFails?: boolean } = {}) {
  const listeners: (() => void)[] = [];
  const updateListeners: (() => void)[] = [];
  const stored = new Map<string, string>();
  type FakeWorker = { state: string; listeners: (() => void)[]; messages: unknown[]; postMessage(m: unknown): void; addEventListener(t: 'statechange', l: () => void): void };
  const registration = {
    waiting: null as FakeWorker | null,
    installing: null as FakeWorker | null,
    addEventListener: (_: 'updatefound', listener: () => void) => void updateListeners.push(listener),
  };
  const container = {
    controller: options.controlled ? {} : null,
    register: async () => {
      if (options.registerFails) throw new Error('blocked');
      return registration;
    },
    addEventListener: (_: 'controllerchange', listener: () => void) => void listeners.push(listener),
  };
  const state = { reloads: 0 };
  const host: ServiceWorkerHost = {
    container: container as unknown as ServiceWorkerContainerLike,
    isolated: options.isolated ?? false,
    storage: options.storage === false ? undefined : { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v), removeItem: (k) => void stored.delete(k) },
    reload: () => void state.reloads++,
    scriptUrl: 'https://conch.example/sw.js',
  };
  return {
    host,
    state,
    stored,
    registration,
    /** The worker took control of the page (first install's clients.claim(), or an update's skipWaiting). */
    takeControl() {
      container.controller = {};
      for (const listener of listeners) listener();
    },
    /** A new version finished installing and waits. */
    installUpdate() {
      const worker: FakeWorker = { state: 'installing', listeners: [], messages: [], postMessage: (m) => void worker.messages.push(m), addEventListener: (_, l) => void worker.listeners.push(l) };
      registration.installing = worker;
      for (const listener of updateListeners) listener();
      worker.state = 'installed';
      registration.installing = null;
      registration.waiting = worker;
      for (const listener of worker.listeners) listener();
      return worker;
    },
  };
}

describe('ServiceWorkerClient', () => {
  it('reloads once when the worker takes control of a page that is not cross-origin isolated, and never again in that tab', async () => {
    const first = browser();
    await new ServiceWorkerClient(first.host, () => true).start();
    expect(first.state.reloads).toBe(0);
    first.takeControl();
    expect(first.state.reloads).toBe(1);
    expect(first.stored.has(ISOLATION_RELOAD_KEY)).toBe(true);

    // The reloaded page is still not isolated (a browser that ignores the headers): no second reload.
    const second = browser({ controlled: true });
    second.stored.set(ISOLATION_RELOAD_KEY, '1');
    await new ServiceWorkerClient(second.host, () => true).start();
    second.takeControl();
    expect(second.state.reloads).toBe(0);
  });

  it('never reloads without service workers, without sessionStorage, when registration is blocked, or while the agent runs', async () => {
    const none = browser();
    await new ServiceWorkerClient({ ...none.host, container: undefined }, () => true).start();
    const noStorage = browser({ storage: false });
    await new ServiceWorkerClient(noStorage.host, () => true).start();
    noStorage.takeControl();
    const blocked = browser({ registerFails: true });
    await new ServiceWorkerClient(blocked.host, () => true).start();
    const busy = browser();
    await new ServiceWorkerClient(busy.host, () => false).start();
    busy.takeControl();
    expect([none, noStorage, blocked, busy].map((b) => b.state.reloads)).toEqual([0, 0, 0, 0]);
  });

  it('an isolated page is not reloaded and forgets an earlier reload', async () => {
    const page = browser({ isolated: true, controlled: true });
    page.stored.set(ISOLATION_RELOAD_KEY, '1');
    await new ServiceWorkerClient(page.host, () => true).start();
    page.takeControl();
    expect(page.state.reloads).toBe(0);
    expect(page.stored.has(ISOLATION_RELOAD_KEY)).toBe(false);
  });

  it('offers an installed update, and reloads into it only when asked and the agent is not running', async () => {
    let agentRunning = true;
    const page = browser({ isolated: true, controlled: true });
    const client = new ServiceWorkerClient(page.host, () => !agentRunning);
    await client.start();
    expect(client.updateReady).toBe(false);
    const update = page.installUpdate();
    expect(client.updateReady).toBe(true);

    expect(client.applyUpdate()).toBe(false);
    expect(update.messages).toEqual([]);
    agentRunning = false;
    expect(client.applyUpdate()).toBe(true);
    expect(update.messages).toEqual([{ type: 'skip-waiting' }]);
    expect(page.state.reloads).toBe(0); // not until the new version has taken over
    page.takeControl();
    expect(page.state.reloads).toBe(1);
  });
});
