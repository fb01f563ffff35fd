// The guest environment of the embedded `node`, offered to the app as the virtual module `virtual:conch-node-guest`:
// `core` is src/runtime/embedded/node/guest/main.ts bundled into one script (evaluated in every new QuickJS context), and
// `packages` holds the npm packages that provide Node's core modules (buffer, events, util, assert, stream, ...),
// each bundled on its own as a CommonJS body that the guest compiles only when a program first needs it: QuickJS
// compiles every function it parses, so parsing them all for each `node -e 1` would cost more than running it.
import { build, type Plugin as EsbuildPlugin } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const VIRTUAL_ID = 'virtual:conch-node-guest';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const ENTRY = fileURLToPath(new URL('../src/runtime/embedded/node/guest/main.ts', import.meta.url));

/** Package name inside the guest -> the npm module that provides it. */
export const GUEST_PACKAGES: Record<string, string> = {
  buffer: 'buffer/',
  events: 'events/',
  util: 'util/',
  assert: 'assert/',
  path: 'path-browserify',
  stream: 'stream-browserify',
  string_decoder: 'string_decoder/',
  url: 'url/',
  punycode: 'punycode/',
  inspect: 'node-inspect-extracted',
};

/** Requires of another guest package stay requires (`buffer`, `util/`, ...): each package is loaded once. */
const SHARED = /^(buffer|events|util|string_decoder|assert|path|stream|url)\/?$/;

function shareGuestPackages(self: string): EsbuildPlugin {
  return {
    name: 'conch-guest-packages',
    setup(build) {
      build.onResolve({ filter: SHARED }, (args) => {
        const name = args.path.replace(/\/$/, '');
        return name === self || args.kind === 'entry-point' ? undefined : { path: name, external: true };
      });
    },
  };
}

/** readable-stream's browser build leaves Readable.from out; the guest has async iteration, so it gets Node's. */
const readableFrom: EsbuildPlugin = {
  name: 'conch-readable-from',
  setup(build) {
    build.onResolve({ filter: /internal\/streams\/from$/ }, (args) => ({ path: join(args.resolveDir, 'internal/streams/from.js') }));
  },
};

const COMMON = { bundle: true, write: false, platform: 'browser', target: 'es2022', minify: true, legalComments: 'eof', metafile: true, logLevel: 'silent', define: { global: 'globalThis' } } as const;

export type NodeGuestBundle = { core: string; packages: Record<string, string>; files: string[] };

/** Bundles the guest: its core script and each package; `files` lists the project sources it was built from. */
export async function bundleNodeGuest(): Promise<NodeGuestBundle> {
  const core = await build({ ...COMMON, entryPoints: [ENTRY], format: 'iife' });
  const packages: Record<string, string> = {};
  await Promise.all(
    Object.entries(GUEST_PACKAGES).map(async ([name, module]) => {
      const result = await build({
        ...COMMON,
        stdin: { contents: `module.exports = require(${JSON.stringify(module)});`, resolveDir: fileURLToPath(new URL('..', import.meta.url)) },
        format: 'cjs',
        plugins: [shareGuestPackages(name), readableFrom],
      });
      packages[name] = result.outputFiles[0].text;
    }),
  );
  return { core: core.outputFiles[0].text, packages, files: Object.keys(core.metafile.inputs).filter((file) => !file.includes('node_modules')) };
}

/** Vite plugin serving `virtual:conch-node-guest` ({ core, packages }). */
export function nodeGuestBundle(): Plugin {
  return {
    name: 'conch-node-guest',
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const { core, packages, files } = await bundleNodeGuest();
      for (const file of files) this.addWatchFile(fileURLToPath(new URL(`../${file}`, import.meta.url)));
      return `export default ${JSON.stringify({ core, packages })};`;
    },
  };
}
