// The scripts of node's browser engine, which run inside the sandbox frame and so cannot be fetched (the frame's CSP
// allows no network): each is bundled into one classic script and offered as a string, to be started there from a
// blob: URL. `virtual:conch-node-sandbox-engine` is the engine worker (sandbox/native-engine-entry.ts), which the
// runtime's worker hands to the relay; `virtual:conch-node-sandbox-relay` is the relay worker (sandbox/relay-entry.ts),
// which the page puts in the frame.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const ENTRIES: Record<string, string> = {
  'virtual:conch-node-sandbox-engine': '../src/runtime/embedded/node/sandbox/native-engine-entry.ts',
  'virtual:conch-node-sandbox-relay': '../src/runtime/embedded/node/sandbox/relay-entry.ts',
};

/** Bundles one sandbox script; `files` lists the project sources it was built from. */
export async function bundleSandboxScript(entry: string): Promise<{ code: string; files: string[] }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0].text, files: Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules')) };
}

/** Vite plugin serving the two virtual modules (each a default-exported string). */
export function nodeSandboxBundle(): Plugin {
  return {
    name: 'conch-node-sandbox',
    resolveId(id) {
      return id in ENTRIES ? `\0${id}` : undefined;
    },
    async load(id) {
      const entry = id.startsWith('\0') ? ENTRIES[id.slice(1)] : undefined;
      if (!entry) return undefined;
      const { code, files } = await bundleSandboxScript(entry);
      for (const file of files) this.addWatchFile(fileURLToPath(new URL(`../${file}`, import.meta.url)));
      return `export default ${JSON.stringify(code)};`;
    },
  };
}
