// One tab runs a session at a time: an exclusive Web Lock per session id, held until released or the tab closes.

export type SessionLock = { release(): void };

type LockManagerLike = Pick<LockManager, 'request'>;

/** The lock for session `id`, or null when another tab holds it (open read-only). Without Web Locks: owned. */
export async function acquireSessionLock(id: string, locks: LockManagerLike | undefined = defaultLocks()): Promise<SessionLock | null> {
  if (!locks) return { release() {} };
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return new Promise<SessionLock | null>((resolve, reject) => {
    locks
      .request(`conch-session:${id}`, { mode: 'exclusive', ifAvailable: true }, async (lock) => {
        if (!lock) {
          resolve(null);
          return;
        }
        resolve({ release });
        await released; // the lock is held as long as this callback's promise is pending
      })
      .catch(reject);
  });
}

function defaultLocks(): LockManagerLike | undefined {
  return (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
}
