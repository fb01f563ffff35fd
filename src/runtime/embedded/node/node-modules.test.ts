// Module loading in the embedded `node`: CommonJS, ES modules, resolution through node_modules and package.json
// (main, exports with conditions and patterns, type), the node: prefix, JSON, TypeScript, and the errors Node gives.

import { describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../testing/node-workspace';

const files = {
  'cjs/main.js': "const { add } = require('./math'); const data = require('./data.json'); console.log(add(2, 3), data.name, __filename, __dirname, require.main === module);",
  'cjs/math.js': 'exports.add = (a, b) => a + b;',
  'cjs/data.json': '{ "name": "conch" }',
  'cjs/folder/index.js': "module.exports = 'index of folder';",
  'cjs/uses-folder.js': "console.log(require('./folder'));",
  'esm/main.mjs': "import { add } from './math.mjs'; import cjs from '../cjs/math.js'; import { join } from 'node:path'; import data from '../cjs/data.json' with { type: 'json' };\nconsole.log(add(1, 2), cjs.add(3, 4), join('a', 'b'), data.name, import.meta.url);\nconst lazy = await import('./math.mjs'); console.log(lazy.add(5, 5));",
  'esm/math.mjs': 'export const add = (a, b) => a + b;',
  'typed/package.json': '{ "type": "module" }',
  'typed/main.js': "import { value } from './value.js'; console.log('module via type', value, typeof require);",
  'typed/value.js': 'export const value = 42;',
  'node_modules/plain/package.json': '{ "name": "plain", "main": "lib/entry.js" }',
  'node_modules/plain/lib/entry.js': "module.exports = { name: 'plain main' };",
  'node_modules/dual/package.json': JSON.stringify({
    name: 'dual',
    exports: { '.': { import: './esm.mjs', require: './cjs.js' }, './feature': './feature.js', './utils/*': './src/utils/*.js' },
  }),
  'node_modules/dual/esm.mjs': "export default 'dual esm';",
  'node_modules/dual/cjs.js': "module.exports = 'dual cjs';",
  'node_modules/dual/feature.js': "module.exports = 'dual feature';",
  'node_modules/dual/src/utils/strings.js': "module.exports = 'dual strings';",
  'node_modules/dual/secret.js': "module.exports = 'not exported';",
  'pkgs/deep/nested/use.js': "console.log(require('plain').name, require('dual'), require('dual/feature'), require('dual/utils/strings'));",
  'pkgs/use.mjs': "import dual from 'dual'; import plain from 'plain'; console.log(dual, plain.name);",
  'pkgs/deep/nested/index.js': "console.log('index of a folder');",
  'pkgs/hidden.js': "try { require('dual/secret.js') } catch (e) { console.log(e.code) }",
  'pkgs/missing.js': "try { require('nope') } catch (e) { console.log(e.code, e.message.split('\\n')[0]) }",
  'node_modules/native/package.json': '{ "name": "native", "main": "build/addon.node" }',
  'node_modules/native/build/addon.node': '\u007fELF binary',
  'pkgs/native.js': "try { require('native') } catch (e) { console.log(e.message) }",
  'pkgs/require-esm.js': "try { require('../esm/math.mjs') } catch (e) { console.log(e.code) }",
  'pkgs/dynamic.js': "import('../esm/math.mjs').then((m) => console.log('dynamic', m.add(20, 22)));",
  'ts/main.ts': "import { greet } from './greet.js';\ninterface Named { name: string }\nconst who: Named = { name: 'types' };\nconsole.log(greet(who.name));",
  'ts/greet.ts': 'export function greet(name: string): string { return `hello ${name}`; }',
  'ts/old.cts': "const n: number = 7; module.exports = n; console.log('cts', n as number);",
  'ts/mod.mts': "const s: string = 'mts'; console.log(s);",
};

describe('node module loading', () => {
  const ws = nodeWorkspace(files);

  it('runs CommonJS with require, module.exports, JSON, __filename, __dirname and require.main', async () => {
    expect(await ws.run('node cjs/main.js')).toEqual({ output: '5 conch /home/project/cjs/main.js /home/project/cjs true\n', exitCode: 0 });
    expect((await ws.run('node cjs/uses-folder.js')).output).toBe('index of folder\n');
  });

  it('runs ES modules with static and dynamic import, import.meta.url, JSON and CommonJS interop', async () => {
    expect(await ws.run('node esm/main.mjs')).toEqual({ output: '3 7 a/b conch file:///home/project/esm/main.mjs\n10\n', exitCode: 0 });
    expect((await ws.run('node typed/main.js')).output).toBe('module via type 42 undefined\n');
    expect((await ws.run('node pkgs/dynamic.js')).output).toBe('dynamic 42\n');
  });

  it('resolves packages up the node_modules tree through main and exports (conditions, subpaths, patterns)', async () => {
    expect((await ws.run('node pkgs/deep/nested/use.js')).output).toBe('plain main dual cjs dual feature dual strings\n');
    expect((await ws.run('node pkgs/use.mjs')).output).toBe('dual esm plain main\n');
    expect((await ws.run('node pkgs/hidden.js')).output).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED\n');
  });

  it('reports missing modules and require() of ES modules as Node does', async () => {
    expect((await ws.run('node pkgs/missing.js')).output).toBe("MODULE_NOT_FOUND Cannot find module 'nope'\n");
    expect((await ws.run('node pkgs/require-esm.js')).output).toBe('ERR_REQUIRE_ESM\n');
    expect((await ws.run('node pkgs/native.js')).output).toContain('native modules are not available in Conch\'s embedded runtime');
    const missingMain = await ws.run('node no-such-file.js');
    expect(missingMain.exitCode).toBe(1);
    expect(missingMain.output).toContain("Cannot find module '/home/project/no-such-file.js'");
    // `node test` runs test.js (or test/index.js): node resolves its main script as require does.
    expect((await ws.run('node pkgs/hidden')).output).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED\n');
    expect((await ws.run('node pkgs/deep/nested')).output).toBe('index of a folder\n');
  });

  it('loads core modules with and without the node: prefix, the same object either way', async () => {
    const result = await ws.run(`node -e "console.log(require('fs') === require('node:fs'), require('node:path').sep, typeof require('node:test'))"`);
    expect(result.output).toBe('true / function\n');
    expect((await ws.run(`node -e "require('test')"`)).output).toContain("Cannot find module 'test'");
  });

  it('runs TypeScript (.ts, .mts, .cts) with its types stripped', async () => {
    expect(await ws.run('node ts/main.ts')).toEqual({ output: 'hello types\n', exitCode: 0 });
    expect((await ws.run('node ts/old.cts')).output).toBe('cts 7\n');
    expect((await ws.run('node ts/mod.mts')).output).toBe('mts\n');
  });
});
