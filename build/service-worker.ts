// Builds dist/sw.js after `vite build`: src/service-worker/sw.ts bundled by esbuild with the list of every file the
// build wrote (its precache) and a version made from their contents, so a new build is a new service worker and the
// browser picks it up as an update. Build only: the dev server has no service worker.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

const ENTRY = fileURLToPath(new URL('../src/service-worker/sw.ts', import.meta.url));
export const SERVICE_WORKER_FILE = 'sw.js';
/** Files a static host reads but never serves to the page. */
const NOT_SERVED = new Set([SERVICE_WORKER_FILE, '_headers']);

/** The files under `dir` the page may load, as paths relative to it, sorted. */
export function precacheList(dir: string): string[] {
  const out: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.filter((path) => !NOT_SERVED.has(path) && !path.endsWith('.map')).sort();
}

/** Vite plugin writing sw.js into the build's output folder. */
export function serviceWorker(): Plugin {
  let outDir = '';
  return {
    name: 'conch-service-worker',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = precacheList(outDir);
      const hash = createHash('sha256');
      for (const file of files) hash.update(file).update(readFileSync(join(outDir, file)));
      const result = await build({
        entryPoints: [ENTRY],
        bundle: true,
        write: false,
        format: 'iife',
        target: 'es2022',
        minify: true,
        logLevel: 'silent',
        define: { __CONCH_PRECACHE__: JSON.stringify(files), __CONCH_VERSION__: JSON.stringify(hash.digest('hex').slice(0, 16)) },
      });
      writeFileSync(join(outDir, SERVICE_WORKER_FILE), result.outputFiles[0].text);
    },
  };
}
