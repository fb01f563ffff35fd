// Transformed modules of installed packages kept across page loads and runtimes: the full parse of a big ES module
// (prettier's CLI: 100-200 ms) is paid once per package version, not once per page load. They are kept in npm's
// cache (in the page's IndexedDB, beside the tarballs they came from) as JSON, under a key naming the transform's
// version. What comes back is checked before use, and a store that fails or is slow costs only the transform.

import type { TransformedModule } from './messages';

/**
 * The transform's output version, part of every stored key: raise it whenever a change to the transform (or to what
 * the guest expects of its output) would make an old output wrong, and the stored ones are no longer found.
 */
export const TRANSFORM_VERSION = 1;

/** How long a lookup may wait on the store before the module is transformed instead (the program is waiting). */
const LOOKUP_TIMEOUT_MS = 1000;

/** Bytes by key that outlive the runtime (npm's PackageCache has this shape). */
export interface ModuleStore {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, data: Uint8Array): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Transformed modules in a ModuleStore, by the transform cache's key. */
export class StoredModules {
  constructor(private readonly store: ModuleStore) {}

  /** The module stored under `key`, or undefined: none, unreadable, malformed, or not there within the timeout. */
  async get(key: string): Promise<TransformedModule | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS);
    });
    try {
      const bytes = await Promise.race([this.store.get(storeKey(key)), late]);
      return bytes instanceof Uint8Array ? parseStored(decoder.decode(bytes)) : undefined;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Keeps `module` under `key`, best effort: a full or failing store is not the program's problem. */
  put(key: string, module: TransformedModule): void {
    this.store.put(storeKey(key), encoder.encode(JSON.stringify(module))).catch(() => {});
  }
}

function storeKey(key: string): string {
  return `node-module-transform/v${TRANSFORM_VERSION}/${key}`;
}

/** A stored module if `text` is one in every field, else undefined. */
function parseStored(text: string): TransformedModule | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const { code, async, imports, bindings, getterExports } = value as Record<string, unknown>;
  if ((code !== undefined && typeof code !== 'string') || typeof async !== 'boolean') return undefined;
  if (imports !== undefined && !(Array.isArray(imports) && imports.every((specifier) => typeof specifier === 'string'))) return undefined;
  if (bindings !== undefined && !(Array.isArray(bindings) && bindings.every(isBinding))) return undefined;
  if (getterExports !== undefined && typeof getterExports !== 'boolean') return undefined;
  return value as TransformedModule;
}

function isBinding(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const { specifier, name, line } = value as Record<string, unknown>;
  return typeof specifier === 'string' && typeof name === 'string' && Number.isInteger(line);
}
