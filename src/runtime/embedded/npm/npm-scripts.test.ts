// `npm test`, `npm run`, `npx` and the reinstall of node_modules after a restore, in the embedded runtime, with the
// real shell-quote 1.6.1 package and its tape tests (from the local fixture registry).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRuntime } from '../in-process';
import { memoryPackageCache } from './environment';
import { startFixtureRegistry, type FixtureRegistry } from './testing/fixture-registry';
import { fixturePackageFiles, npmRuntime } from '../testing/npm-workspace';

let registry: FixtureRegistry;
const cache = memoryPackageCache();
const runtimes: EmbeddedRuntime[] = [];
let project: EmbeddedRuntime;

beforeAll(async () => {
  registry = await startFixtureRegistry();
  project = runtime(await fixturePackageFiles('shell-quote-1.6.1.tgz'));
  expect((await project.exec('npm install')).exitCode).toBe(0);
});
afterAll(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
  await registry.close();
});

function runtime(files: Record<string, string | Uint8Array> = {}): EmbeddedRuntime {
  const created = npmRuntime({ registry: registry.url, cache, files });
  runtimes.push(created);
  return created;
}

describe('npm test and npm run', () => {
  it('npm test runs the package\'s tape tests through the shell, and exits 1 once the code is broken', async () => {
    const passed = await project.exec('npm test');
    expect(passed.exitCode).toBe(0);
    expect(passed.output).toMatch(/^\n> shell-quote@1\.6\.1 test\n> tape test\/\*\.js\n\nTAP version 13\n/);
    expect(passed.output).toMatch(/\n1\.\.95\n# tests 95\n# pass {2}95\n\n# ok\n/);

    await project.exec(`sed -i "s/}).join(' ');/}).join(',');/" index.js`);
    const failed = await project.exec('npm test');
    expect(failed.exitCode).toBe(1);
    expect(failed.output).toMatch(/\nnot ok \d+ should be equal\n/);
    expect(failed.output).toMatch(/\nnpm error script "test" failed: `tape test\/\*\.js` exited with code 1\n$/);
    await project.exec(`sed -i "s/}).join(',');/}).join(' ');/" index.js`);
  });

  it('npm run puts node_modules/.bin on PATH, passes arguments after --, and runs pre and post scripts', async () => {
    const scripted = runtime({
      'package.json': JSON.stringify({
        name: 'scripted',
        version: '2.0.0',
        devDependencies: { tape: '~2.3.0' },
        scripts: { prebuild: 'echo before', build: 'echo building "$npm_lifecycle_event" $npm_package_name', postbuild: 'echo after', where: 'which tape', args: 'node args.js' },
      }),
      'args.js': "console.log(process.argv.slice(2).join(','));",
    });
    expect((await scripted.exec('npm install')).exitCode).toBe(0);
    expect((await scripted.exec('npm run build')).output).toBe('\n> scripted@2.0.0 prebuild\n> echo before\n\nbefore\n\n> scripted@2.0.0 build\n> echo building "$npm_lifecycle_event" $npm_package_name\n\nbuilding build scripted\n\n> scripted@2.0.0 postbuild\n> echo after\n\nafter\n');
    expect((await scripted.exec('npm run --silent where')).output).toBe('/home/project/node_modules/.bin/tape\n');
    expect((await scripted.exec(`npm run -s args -- --grep "two words"`)).output).toBe('--grep,two words\n');
    expect((await scripted.exec('npm run')).output).toContain('Scripts available in scripted@2.0.0 via `npm run-script`:\n  prebuild\n    echo before\n');
    expect(await scripted.exec('npm run deploy')).toEqual({ output: 'npm error Missing script: "deploy" (this package.json has: prebuild, build, postbuild, where, args)\n', exitCode: 1 });
  });

  it('npx runs an installed bin and names one that is not installed', async () => {
    const ran = await project.exec('npx tape test/set.js');
    expect(ran.exitCode).toBe(0);
    expect(ran.output).toContain('# pass  5\n');
    const missing = await project.exec('npx eslint .');
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toMatch(/^npx: eslint is not installed in node_modules\/\.bin here; the embedded npx runs installed bins only\./);
  });
});

describe('after a restore (node_modules is not in snapshots)', () => {
  it('the first npm test reinstalls node_modules from the lockfile and the cache, saying so in one line', async () => {
    const snapshot = await project.exportZip();
    const restored = runtime();
    await restored.importZip(snapshot);
    expect(await restored.stat('node_modules')).toBeNull();
    const requestsBefore = registry.requests.length;

    const result = await restored.exec('npm test');
    expect(result.exitCode).toBe(0);
    const lines = result.output.split('\n');
    expect(lines[0]).toBe('npm: node_modules is not kept in saved sessions, so it was reinstalled from package-lock.json: 10 packages (10 from the cache; 0 B from the network), integrity checked');
    expect(result.output).toContain('# pass  95\n');
    expect(registry.requests.length).toBe(requestsBefore); // all from the cache
    expect((await restored.exec('npm test')).output).not.toContain('reinstalled'); // once per restore
  });

  it('node needing a package triggers the reinstall too; a restore with node_modules present keeps it', async () => {
    const snapshot = await project.exportZip();
    const restored = runtime();
    await restored.importZip(snapshot);
    const used = await restored.exec(`node -p "require('jsonify').stringify({ a: [1] })"`);
    expect(used.exitCode).toBe(0);
    expect(used.output).toMatch(/^\{"a":\[1\]\}\nnpm: node_modules is not kept in saved sessions, so it was reinstalled from package-lock\.json: 10 packages/);

    const withModules = runtime();
    await withModules.importZip(await project.exportZip({ exclude: [] }));
    await withModules.writeFile('node_modules/jsonify/index.js', 'module.exports = { stringify: () => "kept" };');
    expect((await withModules.exec(`node -p "require('jsonify').stringify(1)"`)).output).toBe('kept\n');
  });
});
