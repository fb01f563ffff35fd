import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireSessionLock } from './lock';
import { openSessionEvents } from './events';
import { requestPersistentStorage, storageEstimate } from '../storage-info';

/** A minimal exclusive, ifAvailable-only LockManager, behaving like the browser's for one origin. */
function fakeLocks() {
  const held = new Set<string>();
  return {
    async request(name: string, _options: LockOptions, callback: (lock: Lock | null) => Promise<void>) {
      if (held.has(name)) return callback(null);
      held.add(name);
      try {
        return await callback({ name, mode: 'exclusive' } as Lock);
      } finally {
        held.delete(name);
      }
    },
  } as unknown as LockManager;
}

describe('session lock', () => {
  it('gives the lock to one tab at a time, and to the next after release', async () => {
    const locks = fakeLocks();
    const first = await acquireSessionLock('s1', locks);
    expect(first).not.toBeNull();
    expect(await acquireSessionLock('s1', locks)).toBeNull();
    expect(await acquireSessionLock('s2', locks)).not.toBeNull();
    first?.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(await acquireSessionLock('s1', locks)).not.toBeNull();
  });

  it('treats a browser without Web Locks as owning the session', async () => {
    const lock = await acquireSessionLock('s1', undefined);
    expect(lock).not.toBeNull();
    lock?.release();
  });
});

describe('session events', () => {
  it('delivers list changes to other listeners on the channel and ignores junk', async () => {
    const tabA = openSessionEvents('test-channel');
    const tabB = openSessionEvents('test-channel');
    const received: unknown[] = [];
    const arrived = new Promise<void>((resolve) => tabB.subscribe((c) => (received.push(c), received.length === 1 && resolve())));
    new BroadcastChannel('test-channel').postMessage({ type: 'evil', id: 5 });
    tabA.publish({ type: 'deleted', id: 'x' });
    await arrived;
    await new Promise((r) => setTimeout(r, 20));
    expect(received).toEqual([{ type: 'deleted', id: 'x' }]);
    tabA.close();
    tabB.close();
  });
});

describe('storage info', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports usage and asks for persistence where the API exists', async () => {
    const persist = vi.fn(async () => true);
    vi.stubGlobal('navigator', { storage: { estimate: async () => ({ usage: 10, quota: 100 }), persisted: async () => false, persist } });
    expect(await storageEstimate()).toEqual({ usage: 10, quota: 100 });
    expect(await requestPersistentStorage()).toBe(true);
    expect(persist).toHaveBeenCalledOnce();
  });

  it('tolerates a missing navigator.storage', async () => {
    vi.stubGlobal('navigator', {});
    expect(await storageEstimate()).toBeNull();
    expect(await requestPersistentStorage()).toBeNull();
  });
});
