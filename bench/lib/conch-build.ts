// Conch's side of the loop bench, built the way the app ships (one esbuild bundle, target es2022, names not kept)
// rather than run through tsx, whose per-module transform keeps function names: that adds a call to every closure
// the loop makes and slowed Conch's loop by about a third, while Pi runs from its published JavaScript.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { LoopRun } from './loop-shape';
import { REPO_ROOT } from './paths';

/** Bundles bench/lib/conch-loop.ts into a temporary folder and loads its loop runner. */
export async function builtConchLoop(): Promise<LoopRun> {
  const folder = join(tmpdir(), 'conch-bench-loop');
  mkdirSync(folder, { recursive: true });
  const outfile = join(folder, `conch-loop-${process.pid}.mjs`);
  await build({
    entryPoints: [join(REPO_ROOT, 'bench', 'lib', 'conch-loop.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    keepNames: false,
    outfile,
    logLevel: 'warning',
  });
  try {
    const loaded = (await import(pathToFileURL(outfile).href)) as { conchLoop: LoopRun };
    return loaded.conchLoop;
  } finally {
    rmSync(outfile, { force: true }); // loaded: the file is no longer needed
  }
}
