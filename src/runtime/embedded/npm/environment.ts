// What the embedded `npm` needs from outside the sandbox: which registry to use and a cache that outlives the
// page. The runtime imports nothing from the app, so the app injects both (in the browser through the worker
// protocol, with the cache in IndexedDB); without them npm uses the public registry and a cache in memory.

/** The public npm registry, which browsers reach with CORS. */
export const DEFAULT_REGISTRY = 'https://registry.npmjs.org/';

/** Bytes npm keeps between installs: tarballs keyed by integrity, registry metadata keyed by URL. */
export interface PackageCache {
  get(key: string): Promise<Uint8Array | undefined>;
  /** Best effort: a cache that cannot store (quota, private mode) may reject; the install goes on. */
  put(key: string, data: Uint8Array): Promise<void>;
}

export interface NpmEnvironment {
  /** The registry base URL in force now (a setting, so it is asked at each install). */
  registry(): string | Promise<string>;
  cache: PackageCache;
}

/** A cache that lives as long as the runtime (Node tests, or a page that cannot store). */
export function memoryPackageCache(): PackageCache & { readonly size: number } {
  const entries = new Map<string, Uint8Array>();
  return {
    get: async (key) => entries.get(key),
    put: async (key, data) => {
      entries.set(key, data);
    },
    get size() {
      return entries.size;
    },
  };
}

/** The environment used when the app injects none: the public registry and a cache in memory. */
export function defaultNpmEnvironment(): NpmEnvironment {
  return { registry: () => DEFAULT_REGISTRY, cache: memoryPackageCache() };
}

/** The registry URL as npm uses it: absolute http(s), ending in one slash. Throws a sentence for anything else. */
export function normalizeRegistry(url: string): string {
  const trimmed = url.trim() || DEFAULT_REGISTRY;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    throw new Error(`the npm registry setting "${trimmed}" is not a URL; set it to e.g. ${DEFAULT_REGISTRY}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`the npm registry setting "${trimmed}" is not an http(s) URL; set it to e.g. ${DEFAULT_REGISTRY}`);
  }
  return parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
}
