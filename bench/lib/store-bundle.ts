// The store's public API (src/store/index.ts) as one ES module, for pages served from a production build, where
// source modules cannot be imported: a bench evaluates it from a blob URL to seed the app's own database.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { REPO_ROOT, RESULTS_DIR } from './paths';

/** Builds src/store/index.ts into bench/results/store-lib/store.js and returns its code. */
export async function storeBundle(): Promise<string> {
  const outDir = join(RESULTS_DIR, 'store-lib');
  await build({
    root: REPO_ROOT,
    configFile: false,
    logLevel: 'warn',
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      lib: { entry: join(REPO_ROOT, 'src/store/index.ts'), formats: ['es'], fileName: () => 'store.js' },
    },
  });
  return readFileSync(join(outDir, 'store.js'), 'utf8');
}
