// npm's tarball and metadata cache in IndexedDB (the runtime's PackageCache, injected by the app), so a second
// install of the same versions works offline and after a reload. Its own database: a cache that can be dropped as a
// whole without touching sessions, and whose schema never has to move with theirs.
import { createStore, get, set } from 'idb-keyval';
import type { PackageCache } from '../runtime/embedded/npm/environment';
import { mapStorageError } from './db';

/** Opens (lazily) the database `<prefix>conch-npm-cache`. */
export function createPackageCache(prefix = ''): PackageCache {
  const store = createStore(`${prefix}conch-npm-cache`, 'packages');
  return {
    async get(key) {
      const value = await get<unknown>(key, store);
      return value instanceof Uint8Array ? value : undefined;
    },
    async put(key, data) {
      try {
        await set(key, data, store);
      } catch (error) {
        throw mapStorageError(error, 'the npm package cache');
      }
    },
  };
}
