// npm in the embedded runtime as the page runs it: inside the worker, asking the page (through the worker protocol)
// for the registry setting at each install and for the page's tarball cache.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmbeddedRuntimeInWorker } from '../client';
import { createInMemoryWorker } from '../../testing/in-memory-worker';
import { memoryPackageCache } from './environment';
import { startFixtureRegistry, type FixtureRegistry } from './testing/fixture-registry';

let registry: FixtureRegistry;
beforeAll(async () => {
  registry = await startFixtureRegistry();
});
afterAll(() => registry.close());

it('reads the registry setting at each install and keeps tarballs in the page\'s cache', async () => {
  const cache = memoryPackageCache();
  let setting = 'not a url';
  const runtime = await createEmbeddedRuntimeInWorker({
    createWorker: () => createInMemoryWorker(),
    files: { 'package.json': '{ "name": "app", "dependencies": { "jsonify": "^0.0.1" } }' },
    npm: { registry: () => setting, cache },
  });
  try {
    expect(await runtime.exec('npm install')).toEqual({
      output: 'npm error the npm registry setting "not a url" is not a URL; set it to e.g. https://registry.npmjs.org/ (node_modules is unchanged)\n',
      exitCode: 1,
    });
    setting = registry.url;
    expect(await runtime.exec('npm config get registry')).toEqual({ output: `${registry.url}\n`, exitCode: 0 });
    const installed = await runtime.exec('npm install');
    expect(installed.exitCode).toBe(0);
    expect(installed.output).toContain('added 1 package');
    expect(cache.size).toBe(2); // jsonify's metadata and its tarball
    expect(await runtime.stat('node_modules/jsonify/package.json')).toMatchObject({ type: 'file' });
  } finally {
    await runtime.dispose();
  }
});
