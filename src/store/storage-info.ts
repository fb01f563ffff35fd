// navigator.storage wrappers that degrade to null where the API is missing (Node, older browsers, some iframes).

// Declared here rather than taken from the DOM's StorageManager: `persist` exists only on a page's navigator, and
// the store is also type-checked as worker code.
type StorageManagerLike = {
  estimate?(): Promise<{ usage?: number; quota?: number }>;
  persist?(): Promise<boolean>;
  persisted?(): Promise<boolean>;
};

function storageManager(): StorageManagerLike | null {
  const nav = (globalThis as unknown as { navigator?: { storage?: StorageManagerLike } }).navigator;
  return nav?.storage ?? null;
}

/** Bytes used and available to this origin, or null when the browser cannot tell. */
export async function storageEstimate(): Promise<{ usage: number; quota: number } | null> {
  const storage = storageManager();
  if (typeof storage?.estimate !== 'function') return null;
  try {
    const { usage, quota } = await storage.estimate();
    return { usage: usage ?? 0, quota: quota ?? 0 };
  } catch {
    return null;
  }
}

/** Asks the browser not to evict this origin's data; true if granted, null when the API is missing. */
export async function requestPersistentStorage(): Promise<boolean | null> {
  const storage = storageManager();
  if (typeof storage?.persist !== 'function') return null;
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}
