// The dev server pre-bundles what it finds by crawling from index.html; code only Web Workers import is found on first
// use instead, and the page then reloads ("optimized dependencies changed"). vite.config.ts names those packages in
// optimizeDeps.include; this test fails when a worker starts importing a package that is not named there.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import config from '../vite.config';

const WORKER_ENTRIES = ['src/runtime/embedded/worker.ts', 'src/runtime/embedded/node/engine/worker.ts', 'src/store/files/session-file/worker.ts'];

/** Packages imported (not type-only) anywhere in the module graph of `entry`, following relative imports. */
function packagesOf(entry: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  const file = resolve(entry);
  if (seen.has(file)) return found;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    const specifier = match[1] ?? match[2];
    if (specifier.startsWith('.')) packagesOf(join(dirname(file), specifier.endsWith('.ts') ? specifier : `${specifier}.ts`), seen, found);
    // Asset URLs (`?url`) and virtual modules are Vite's own, nothing to pre-bundle.
    else if (!specifier.startsWith('node:') && !specifier.includes('?') && !specifier.startsWith('virtual:')) found.add(specifier);
  }
  return found;
}

it('pre-bundles every package the Web Workers import', () => {
  const included = new Set(config.optimizeDeps?.include ?? []);
  const needed = new Set(WORKER_ENTRIES.flatMap((entry) => [...packagesOf(entry)]));
  expect(needed.size).toBeGreaterThan(2);
  expect([...needed].filter((name) => !included.has(name)), "imported by a worker but not in optimizeDeps.include").toEqual([]);
});
