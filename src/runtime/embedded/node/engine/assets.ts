// What every engine worker is initialised with: QuickJS's WebAssembly, compiled once per thread and handed to each
// new worker (a module is cheap to post, expensive to compile), and the guest environment's source.

import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import guest from 'virtual:conch-node-guest';
import type { GuestSources } from './protocol';

export type EngineAssets = { wasm: WebAssembly.Module; guest: GuestSources };

let assets: Promise<EngineAssets> | undefined;

/** The compiled engine and the guest source; loaded on first use and cached (a failed load is retried next time). */
export function loadEngineAssets(): Promise<EngineAssets> {
  assets ??= compileWasm().then(
    (wasm) => ({ wasm, guest }),
    (error: unknown) => {
      assets = undefined;
      throw new Error(`node: could not load the JavaScript engine: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
  return assets;
}

async function compileWasm(): Promise<WebAssembly.Module> {
  const nodeProcess = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?: (name: string) => unknown } }).process;
  if (nodeProcess?.versions?.node && nodeProcess.getBuiltinModule) {
    const nodeModule = nodeProcess.getBuiltinModule('node:module') as typeof import('node:module');
    const nodeFs = nodeProcess.getBuiltinModule('node:fs') as typeof import('node:fs');
    const path = nodeModule.createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    return WebAssembly.compile(nodeFs.readFileSync(path));
  }
  return WebAssembly.compileStreaming(fetch(wasmUrl));
}
