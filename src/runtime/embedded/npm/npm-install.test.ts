// `npm install` and `npm ci` in the embedded runtime against a local registry serving real tarballs (shell-quote
// 1.6.1's tree and tape 4.0.0's): semver resolution and hoisting, the lockfile, integrity checks, the tarball cache
// standing in for the network, and failures that leave the workspace as it was.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRuntime } from '../in-process';
import { memoryPackageCache } from './environment';
import { startFixtureRegistry, type FixtureRegistry } from './testing/fixture-registry';
import { fixturePackageFiles, npmRuntime, treeOf } from '../testing/npm-workspace';

let registry: FixtureRegistry;
const runtimes: EmbeddedRuntime[] = [];

beforeAll(async () => {
  registry = await startFixtureRegistry();
  await registry.publish({ name: 'native-addon', version: '1.0.0', main: 'index.js', gypfile: true }, { 'binding.gyp': '{ "targets": [] }', 'index.js': "module.exports = require('./build/Release/addon.node');" });
  await registry.publish({ name: 'with-postinstall', version: '1.2.0', scripts: { postinstall: 'node banner.js' } }, { 'index.js': 'module.exports = 42;', 'banner.js': "console.log('thanks');" });
});
afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => runtime.dispose()));
  await registry.close();
});

function runtimeWith(files: Record<string, string | Uint8Array>, options: { registry?: string; cache?: ReturnType<typeof memoryPackageCache> } = {}): EmbeddedRuntime {
  const runtime = npmRuntime({ registry: options.registry ?? registry.url, cache: options.cache, files });
  runtimes.push(runtime);
  return runtime;
}

async function readJson(runtime: EmbeddedRuntime, path: string): Promise<Record<string, any>> {
  return JSON.parse(new TextDecoder().decode(await runtime.readFile(path)));
}

function fixtureIntegrity(fileName: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(new URL(`./testing/registry/${fileName}`, import.meta.url))).digest('base64')}`;
}

/** A registry URL nothing answers at: the network is down for whoever uses it. */
async function deadRegistryUrl(): Promise<string> {
  const gone = await startFixtureRegistry();
  await gone.close();
  return gone.url;
}

describe('npm install', () => {
  it('installs a real package\'s dependency tree: semver ranges, a hoisted node_modules, .bin and package-lock.json v3', async () => {
    const runtime = runtimeWith(await fixturePackageFiles('shell-quote-1.6.1.tgz'));
    const result = await runtime.exec('npm install');
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/^npm: resolved 10 packages \(metadata of 10 from http:\/\/127\.0\.0\.1:\d+\/\)$/m);
    expect(result.output).toMatch(/^npm: fetched 10 tarballs \(10 downloaded; \d+ kB from the network\), integrity checked$/m);
    expect(result.output).toMatch(/^npm: unpacked 10 packages \(119 files\) into node_modules$/m);
    expect(result.output).toMatch(/^added 10 packages in [\d.]+s; 10 packages in node_modules$/m);

    expect((await runtime.readdir('node_modules')).map((e) => e.name)).toEqual([
      '.bin', '.package-lock.json', 'array-filter', 'array-map', 'array-reduce', 'deep-equal', 'defined', 'inherits', 'jsonify', 'resumer', 'tape', 'through',
    ]);
    const lock = await readJson(runtime, 'package-lock.json');
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.packages[''].devDependencies).toEqual({ tape: '~2.3.0' });
    // ~0.0.0 takes the highest of 0.0.0 and 0.0.1; ~2.3.0 takes 2.3.3 although 4.0.0 is the latest.
    expect(lock.packages['node_modules/jsonify']).toMatchObject({ version: '0.0.1', integrity: fixtureIntegrity('jsonify-0.0.1.tgz') });
    expect(lock.packages['node_modules/jsonify'].dev).toBeUndefined(); // shell-quote needs it too
    expect(lock.packages['node_modules/tape']).toMatchObject({ version: '2.3.3', dev: true, bin: { tape: 'bin/tape' } });
    expect(lock.packages['node_modules/tape'].resolved).toBe(`${registry.url}tape/-/tape-2.3.3.tgz`);
    expect(lock.packages['node_modules/deep-equal']).toMatchObject({ version: '0.1.2', dev: true });
    expect(await runtime.exec('cat node_modules/.bin/tape')).toMatchObject({ output: expect.stringContaining('node "${0%/*}/../tape/bin/tape" "$@"') });

    // A second install finds everything in place.
    const again = await runtime.exec('npm install');
    expect(again.output).toMatch(/^npm: resolved 10 packages from package-lock.json\nup to date: 10 packages in node_modules/);
  });

  it('takes the latest version when it matches, the highest match otherwise, and nests a version that conflicts', async () => {
    const project = { name: 'demo', version: '1.0.0', dependencies: { tape: '>=2', 'deep-equal': '~0.1.0', jsonify: '0.0.0' } };
    const runtime = runtimeWith({ 'package.json': JSON.stringify(project) });
    expect((await runtime.exec('npm install')).exitCode).toBe(0);
    const lock = await readJson(runtime, 'package-lock.json');
    expect(lock.packages['node_modules/tape'].version).toBe('4.0.0');
    expect(lock.packages['node_modules/deep-equal'].version).toBe('0.1.2');
    // tape 4 wants deep-equal ~1.0.0: the root has 0.1.2, so its own copy goes under it.
    expect(lock.packages['node_modules/tape/node_modules/deep-equal'].version).toBe('1.0.1');
    expect(lock.packages['node_modules/jsonify'].version).toBe('0.0.0');
    expect(lock.packages['node_modules/glob'].version).toBe('5.0.15'); // hoisted from tape's dependencies
    const seen = await runtime.exec(`node -p "require('deep-equal/package.json').version + ' ' + require('./node_modules/tape/node_modules/deep-equal/package.json').version"`);
    expect(seen.output).toBe('0.1.2 1.0.1\n');
  });

  it('npm install <name> saves ^version, -D saves to devDependencies, -E saves the exact version; uninstall removes', async () => {
    const runtime = runtimeWith({ 'package.json': '{ "name": "saver", "version": "0.1.0" }' });
    expect((await runtime.exec('npm install jsonify && npm install -D tape@~2.3.0 && npm i -E deep-equal@0.1')).exitCode).toBe(0);
    const manifest = await readJson(runtime, 'package.json');
    expect(manifest.dependencies).toEqual({ 'deep-equal': '0.1.2', jsonify: '^0.0.1' });
    expect(manifest.devDependencies).toEqual({ tape: '~2.3.0' });
    expect(manifest.name).toBe('saver');
    const removed = await runtime.exec('npm uninstall tape');
    expect(removed.output).toMatch(/removed \d+ packages/);
    expect((await readJson(runtime, 'package.json')).devDependencies).toBeUndefined();
    expect(await runtime.stat('node_modules/tape')).toBeNull();
    expect(await runtime.stat('node_modules/.bin/tape')).toBeNull();
  });
});

describe('npm install failures: one line, and the workspace as it was', () => {
  async function installed(): Promise<{ runtime: EmbeddedRuntime; before: () => Promise<Record<string, string>> }> {
    const runtime = runtimeWith({ 'package.json': JSON.stringify({ name: 'keep', version: '1.0.0', dependencies: { jsonify: '~0.0.0' } }) });
    expect((await runtime.exec('npm install')).exitCode).toBe(0);
    const snapshot = async () => ({ ...(await treeOf(runtime, 'node_modules')), ...(await treeOf(runtime, '.')) });
    return { runtime, before: snapshot };
  }

  it('a tarball that does not match its integrity fails the install and changes nothing', async () => {
    const { runtime, before } = await installed();
    const was = await before();
    const undo = registry.corrupt('glob', '5.0.15');
    try {
      const result = await runtime.exec('npm install tape@4');
      expect(result.exitCode).toBe(1);
      expect(result.output).toMatch(/^npm error EINTEGRITY: the tarball of glob@5\.0\.15 from http:\/\/\S+ does not match its integrity sha512-\S+…: the download was changed or corrupted, so nothing was installed\n$/);
      expect(await before()).toEqual(was);
    } finally {
      undo();
    }
  });

  it('a missing package, an unreachable registry and a package that needs a native build each fail in one line', async () => {
    const { runtime, before } = await installed();
    const was = await before();
    const missing = await runtime.exec('npm install left-pad-that-is-not-there');
    expect(missing).toEqual({ output: `npm error 404 Not Found: left-pad-that-is-not-there is not in the registry ${registry.url} (check the name) (node_modules is unchanged)\n`, exitCode: 1 });

    const native = await runtime.exec('npm install native-addon');
    expect(native.exitCode).toBe(1);
    expect(native.output).toBe('npm error native-addon@1.0.0 needs a native build (its install script runs `node-gyp rebuild`), which the embedded runtime cannot do; nothing was installed. Use the WebContainer runtime, or a pure-JavaScript package instead\n');

    const dead = await deadRegistryUrl();
    const offline = await runtime.exec(`npm install tape --registry=${dead}`);
    expect(offline.exitCode).toBe(1);
    expect(offline.output).toMatch(/^npm error could not reach http:\/\/127\.0\.0\.1:\d+ for the metadata of tape: the network request failed \(offline, or the registry does not allow this page: CORS\).*, and tape is not in the cache from an earlier install \(node_modules is unchanged\)\n$/);
    expect(await before()).toEqual(was);
  });

  it('skips an optional dependency that needs a native build, and says that install scripts were not run', async () => {
    const runtime = runtimeWith({ 'package.json': JSON.stringify({ name: 'opt', dependencies: { 'with-postinstall': '^1.0.0' }, optionalDependencies: { 'native-addon': '*' } }) });
    const result = await runtime.exec('npm install');
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('npm warn skipped optional native-addon@1.0.0 needs a native build (its install script runs `node-gyp rebuild`)\n');
    expect(result.output).toContain('npm warn lifecycle scripts are not run in the embedded runtime; not run: with-postinstall@1.2.0 (postinstall)\n');
    expect(await runtime.stat('node_modules/native-addon')).toBeNull();
    expect((await runtime.exec(`node -p "require('with-postinstall')"`)).output).toBe('42\n');
  });
});

describe('the tarball cache', () => {
  it('makes a second install of the same versions work with the registry unreachable, with and without a lockfile', async () => {
    const own = await startFixtureRegistry();
    const cache = memoryPackageCache();
    const files = await fixturePackageFiles('shell-quote-1.6.1.tgz');
    const first = npmRuntime({ registry: own.url, cache, files });
    runtimes.push(first);
    expect((await first.exec('npm install')).exitCode).toBe(0);
    const lockfile = await first.readFile('package-lock.json');
    await own.close(); // from here on, the network is down

    const withLock = runtimeWith({ ...files, 'package-lock.json': lockfile }, { registry: own.url, cache });
    const fromLock = await withLock.exec('npm install');
    expect(fromLock.exitCode).toBe(0);
    expect(fromLock.output).toMatch(/^npm: fetched 10 tarballs \(10 from the cache; 0 B from the network\), integrity checked$/m);
    expect((await withLock.exec('npm test')).exitCode).toBe(0);

    const withoutLock = runtimeWith(files, { registry: own.url, cache });
    const fromCache = await withoutLock.exec('npm install');
    expect(fromCache.exitCode).toBe(0);
    expect(fromCache.output).toMatch(/^npm: resolved 10 packages \(10 from the cache \(offline\)\)$/m);
    expect(await readJson(withoutLock, 'package-lock.json')).toEqual(JSON.parse(new TextDecoder().decode(lockfile)));
  });
});

describe('npm ci', () => {
  it('installs exactly the lockfile, and refuses one that is out of sync with package.json', async () => {
    const runtime = runtimeWith(await fixturePackageFiles('shell-quote-1.6.1.tgz'));
    expect((await runtime.exec('npm install')).exitCode).toBe(0);
    await runtime.writeFile('node_modules/stray.txt', 'left behind');
    const clean = await runtime.exec('npm ci');
    expect(clean.exitCode).toBe(0);
    expect(clean.output).toMatch(/^npm: resolved 10 packages from package-lock.json$/m);
    expect(await runtime.stat('node_modules/stray.txt')).toBeNull();

    await runtime.exec(`sed -i 's/"tape": "~2.3.0"/"tape": "^4.0.0"/' package.json`);
    const outOfSync = await runtime.exec('npm ci');
    expect(outOfSync).toEqual({
      output: 'npm error npm ci can only install when package.json and package-lock.json are in sync: package.json wants tape@^4.0.0, which package-lock.json does not have. Run npm install to update the lockfile (node_modules is unchanged)\n',
      exitCode: 1,
    });
    expect(await runtime.stat('node_modules/tape')).not.toBeNull();
  });
});
