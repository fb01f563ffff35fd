// Fills bench/compat/registry/ with the real tarballs the corpus needs (corpus.json): each package's own tarball and
// every package of the tree its install needs, as `npm pack` fetches them from the public registry. The tree is
// resolved by real npm (`npm install --package-lock-only`) in a scratch folder. Tarballs the npm tests' fixture
// registry already holds are not copied. Run by hand when the corpus changes: `node --import tsx bench/compat/fetch-corpus.ts`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCorpus } from './corpus';

const here = fileURLToPath(new URL('.', import.meta.url));
const registryDir = join(here, 'registry');
const sharedDir = fileURLToPath(new URL('../../src/runtime/embedded/npm/testing/registry/', import.meta.url));

const tarballName = (name: string, version: string) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
const wanted = new Set<string>();
for (const entry of readCorpus()) {
  wanted.add(`${entry.name}@${entry.version}`);
  const scratch = mkdtempSync(join(tmpdir(), 'corpus-'));
  const manifest = JSON.parse(execFileSync('npm', ['view', `${entry.name}@${entry.version}`, 'dependencies', '--json'], { encoding: 'utf8' }) || '{}');
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', dependencies: { ...manifest, ...entry.devDependencies } }));
  execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--silent'], { cwd: scratch, stdio: 'inherit' });
  const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; name?: string }> };
  for (const [path, info] of Object.entries(lock.packages)) {
    if (!path) continue;
    const name = info.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    wanted.add(`${name}@${info.version}`);
  }
  rmSync(scratch, { recursive: true, force: true });
}
for (const spec of [...wanted].sort()) {
  const at = spec.lastIndexOf('@');
  const file = tarballName(spec.slice(0, at), spec.slice(at + 1));
  if (existsSync(join(sharedDir, file)) || existsSync(join(registryDir, file))) continue;
  execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', registryDir], { stdio: 'inherit' });
}
console.log(`${wanted.size} packages in the corpus's trees`);
