// The guest environment of the embedded `node` (src/runtime/node/guest/main.ts and the npm packages that provide
// Node's core modules: buffer, events, util, assert, stream, ...) bundled into one script, offered to the app as
// the virtual module `virtual:conch-node-guest` (its default export is the script's text). The engine evaluates
// that text inside QuickJS, so it is bundled for QuickJS, not for the page.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:conch-node-guest';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const ENTRY = fileURLToPath(new URL('../src/runtime/node/guest/main.ts', import.meta.url));

/** Bundles the guest script; `files` lists every source it was built from (for watch mode). */
export async function bundleNodeGuest(): Promise<{ code: string; files: string[] }> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    keepNames: false,
    legalComments: 'eof',
    metafile: true,
    define: { global: 'globalThis' },
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0].text, files: Object.keys(result.metafile.inputs) };
}

/** Vite plugin serving `virtual:conch-node-guest`. */
export function nodeGuestBundle(): Plugin {
  return {
    name: 'conch-node-guest',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { code, files } = await bundleNodeGuest();
      for (const file of files) if (!file.includes('node_modules')) this.addWatchFile(fileURLToPath(new URL(`../${file}`, import.meta.url)));
      return `export default ${JSON.stringify(code)};`;
    },
  };
}
