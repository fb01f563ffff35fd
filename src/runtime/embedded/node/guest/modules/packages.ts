// The npm packages that provide Node's core modules inside the guest. Each arrives from the engine as a bundled
// CommonJS body and is compiled on first use, so `node -e 1` does not pay for parsing util, assert or stream.

import { host } from '../host';
import { useNativeUtf8 } from '../fast-utf8';

const loaded = new Map<string, { exports: unknown }>();

/**
 * Globals a package reads while it loads that QuickJS lacks: node-inspect-extracted takes its primordials from
 * `Atomics` (QuickJS's WebAssembly build has no shared memory). An empty stand-in exists only while it loads.
 */
const LOAD_TIME_GLOBALS: Record<string, string[]> = { inspect: ['Atomics'] };

/** Adjustments made once a package has loaded, whoever required it first. */
const AFTER_LOAD: Record<string, (exports: unknown) => void> = {
  buffer: (exports) => useNativeUtf8((exports as typeof import('buffer')).Buffer),
};

/** The package's exports, compiling it on first use; a package's requires of the others are served here too. */
function loadPackage(name: string): unknown {
  const key = name.replace(/\/$/, '');
  const cached = loaded.get(key);
  if (cached) return cached.exports;
  const body = host.packageSource(key);
  const factory = host.compile(`(function (require, module, exports) {${body}\n})`, `node:internal/deps/${key}`) as (
    require: (id: string) => unknown,
    module: { exports: unknown },
    exports: unknown,
  ) => void;
  const module = { exports: {} as unknown };
  loaded.set(key, module);
  const global = globalThis as unknown as Record<string, unknown>;
  const standIns = (LOAD_TIME_GLOBALS[key] ?? []).filter((name) => !(name in global));
  for (const name of standIns) Object.defineProperty(global, name, { value: {}, configurable: true });
  try {
    factory(loadPackage, module, module.exports);
  } finally {
    for (const name of standIns) delete global[name];
  }
  AFTER_LOAD[key]?.(module.exports);
  return module.exports;
}

export const bufferModule = () => loadPackage('buffer') as typeof import('buffer');
export const eventsModule = () => loadPackage('events') as typeof import('events');
export const utilModule = () => loadPackage('util') as typeof import('util');
export const assertModule = () => loadPackage('assert') as typeof import('assert');
export const pathModule = () => loadPackage('path') as typeof import('path');
export const streamModule = () => loadPackage('stream') as typeof import('stream');
export const stringDecoderModule = () => loadPackage('string_decoder') as typeof import('string_decoder');
/** Node's own util.inspect and util.format (the `util` package's are Node 0.10's: no Map, Set, Symbol or BigInt). */
export const inspectModule = () => loadPackage('inspect') as Pick<typeof import('util'), 'inspect' | 'format' | 'formatWithOptions'>;
export const legacyUrlModule = () => loadPackage('url') as { parse: unknown; format: unknown; resolve: unknown; resolveObject: unknown; Url: unknown };
export const punycodeModule = () => loadPackage('punycode');
