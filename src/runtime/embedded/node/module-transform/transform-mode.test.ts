// The guest's 'transform' module path end to end on the QuickJS engine: jobs with modules 'transform' run through an
// EnginePool against a just-bash file system, and what they print is compared with real Node run on the same files
// (written at the same absolute paths in a temporary folder, so file URLs match).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InMemoryFs } from 'just-bash';
import { afterAll, describe, expect, it } from 'vitest';
import { EnginePool } from '../engine/pool';
import type { EngineEntry, EngineJob } from '../engine/protocol';

const root = mkdtempSync(join(tmpdir(), 'conch-esm-'));
const files: Record<string, string> = {
  'node_modules/esm-pkg/package.json': JSON.stringify({ name: 'esm-pkg', type: 'module', exports: { '.': './index.js', './extra': './lib/extra.js' } }),
  'node_modules/esm-pkg/index.js':
    "export { double } from './lib/math.js';\nexport * from './lib/extra.js';\nexport default 'esm-pkg default';\nexport let counter = 0;\nexport function bump() { counter += 1; }\n",
  'node_modules/esm-pkg/lib/math.js': 'export const double = (n) => n * 2;\n',
  'node_modules/esm-pkg/lib/extra.js': "export const extra = 'extra';\nexport const more = 'more';\n",
  'node_modules/cjs-pkg/package.json': JSON.stringify({ name: 'cjs-pkg', main: 'main.js' }),
  'node_modules/cjs-pkg/main.js': 'exports.greet = (who) => `hi ${who}`;\nexports.version = 3;\n',
  'data.json': '{ "name": "conch" }',
  'main.mjs': [
    "import pkg, { double, extra, counter, bump } from 'esm-pkg';",
    "import * as extraNs from 'esm-pkg/extra';",
    "import cjs, { greet } from 'cjs-pkg';",
    "import { join } from 'node:path';",
    "import data from './data.json' with { type: 'json' };",
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
    "console.log(pkg, double(21), extra, Object.keys(extraNs).sort(), greet('esm'), cjs.version, join('a', 'b'), data.name);",
    "bump(); console.log('counter', counter);",
    "console.log(typeof require, require('./helper.cjs').fromCjs, typeof module, typeof exports);",
    'console.log(await require(\'./helper.cjs\').load());',
    "const helper = await import('./helper.cjs?again');",
    'console.log(helper.default.fromCjs, helper.fromCjs);',
    'await new Promise((resolve) => setTimeout(resolve, 5));',
    "console.log('after top-level await', import.meta.url, import.meta.filename, import.meta.dirname);",
    "console.log(import.meta.resolve('./data.json'), \"import('not me')\", `import.meta ${1}`); // import('nor me')",
    '',
  ].join('\n'),
  'helper.cjs': "exports.fromCjs = 'from cjs';\nexports.load = async () => (await import('./esm-dep.mjs')).value;\n",
  'esm-dep.mjs': "export const value = 'esm via import() from cjs: ' + import.meta.url.split('/').pop();\n",
  'entry.cjs': "import('./esm-dep.mjs').then((m) => console.log(m.value, Object.keys(m)));\n",
  'cycle-a.mjs': "import { fromB } from './cycle-b.mjs';\nexport function fromA() { return 'a'; }\nconsole.log('a sees', fromB());\n",
  'cycle-b.mjs': "import { fromA } from './cycle-a.mjs';\nexport const fromB = () => 'b';\nconsole.log('b sees', typeof fromA, fromA());\n",
  'namespace.mjs': "import * as extra from 'esm-pkg/extra';\nimport * as ns from './ordered.mjs';\nconsole.log(extra, ns, this);\n",
  'ordered.mjs': 'export const zebra = 1;\nexport default 2;\nexport function apple() {}\n',
  'throws.mjs': "const x = 1;\n\nfunction boom() {\n  throw new Error('boom at line 4');\n}\nboom();\n",
  'typed/a.mts': "import { twice, type Pair } from './b.mts';\nconst pair: Pair = [1, 2];\nconsole.log(twice(pair[1] as number), import.meta.url.endsWith('/a.mts'));\n",
  'typed/b.mts': 'export type Pair = [number, number];\nexport function twice(n: number): number { return n * 2; }\n',
  'function-import.cjs': "const load = new Function('specifier', 'return import(specifier)');\nload('./esm-dep.mjs').then((m) => console.log(m.value));\n",
  'unsettled.mjs': "process.on('exit', (code) => console.log('exit', code));\nconsole.log('waiting');\nawait new Promise(() => {});\n",
  'tla-config.mjs': "console.log('config starts');\nexport const config = await new Promise((resolve) => setTimeout(() => resolve({ ready: true }), 5));\nconsole.log('config ready');\n",
  'tla-user.mjs': "import { config } from './tla-config.mjs';\nconsole.log('user sees', config);\nexport const seen = config.ready;\n",
  'tla-main.mjs': "console.log('main linked');\nimport { seen } from './tla-user.mjs';\nimport { double } from 'esm-pkg';\nconsole.log('main runs', seen, double(1));\n",
  'wrong-name.mjs': "import { double } from 'esm-pkg';\nimport { tripple } from './node_modules/esm-pkg/lib/math.js';\nconsole.log('not reached');\n",
  'bad.mjs': "const ok = 1;\nconst = 2;\n",
  'missing.mjs': "import './nope.mjs';\n",
  'calc.test.mjs': "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { double } from 'esm-pkg';\ntest('doubles', () => { assert.strictEqual(double(2), 4); });\n",
};
for (const [path, content] of Object.entries(files)) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}
const fs = new InMemoryFs(Object.fromEntries(Object.entries(files).map(([path, content]) => [join(root, path), content])));
const pool = new EnginePool();
afterAll(() => {
  pool.dispose();
  rmSync(root, { recursive: true, force: true });
});

/** The guest's run of `entry` in 'transform' mode: stdout, stderr, exit code. */
async function embedded(entry: EngineEntry, argv: string[]): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const job: EngineJob = {
    entry,
    argv: ['/usr/local/bin/node', ...argv],
    execArgv: [],
    cwd: root,
    env: {},
    stdin: '',
    testOnly: false,
    testNumberOffset: 0,
    memoryLimitBytes: 256 * 1024 * 1024,
    modules: 'transform',
  };
  const { stdout, stderr, exitCode } = await pool.run(job, fs);
  return { stdout, stderr, exitCode };
}

/** Real Node's stdout for `node ARGS` in the temporary folder. */
function realNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
}

describe("node with modules: 'transform'", () => {
  it('runs an ES module graph (a "type": "module" package with exports, CommonJS, JSON, core modules) as Node does', async () => {
    const run = await embedded({ kind: 'file', path: join(root, 'main.mjs') }, [join(root, 'main.mjs')]);
    expect(run).toEqual({ stdout: realNode(['main.mjs']), stderr: '', exitCode: 0 });
  });

  it("runs import() from a CommonJS entry, and from a new Function's body, as Node does", async () => {
    for (const file of ['entry.cjs', 'function-import.cjs']) {
      const run = await embedded({ kind: 'file', path: join(root, file) }, [join(root, file)]);
      expect(run, file).toEqual({ stdout: realNode([file]), stderr: '', exitCode: 0 });
    }
  });

  it('runs --input-type=module code with top-level await, and import() from -e code, as Node does', async () => {
    const esm = "import { double } from 'esm-pkg'; const m = await import('./esm-dep.mjs'); console.log(double(4), m.value, import.meta.url);";
    expect(await embedded({ kind: 'eval', code: esm, print: false, module: true }, [])).toEqual({
      stdout: realNode(['--input-type=module', '-e', esm]),
      stderr: '',
      exitCode: 0,
    });
    const script = "import('esm-pkg').then((m) => console.log(m.default, m.double(5)));";
    expect(await embedded({ kind: 'eval', code: script, print: false, module: false }, [])).toEqual({ stdout: realNode(['-e', script]), stderr: '', exitCode: 0 });
  });

  it('binds exported functions before an import cycle runs, and prints namespaces as Node does', async () => {
    for (const file of ['cycle-a.mjs', 'namespace.mjs']) {
      const run = await embedded({ kind: 'file', path: join(root, file) }, [join(root, file)]);
      expect(run, file).toEqual({ stdout: realNode([file]), stderr: '', exitCode: 0 });
    }
  });

  it('runs a module only once what it imports statically has settled its top-level await, as Node does', async () => {
    const run = await embedded({ kind: 'file', path: join(root, 'tla-main.mjs') }, [join(root, 'tla-main.mjs')]);
    expect(run).toEqual({ stdout: realNode(['tla-main.mjs']), stderr: '', exitCode: 0 });
  });

  it('ends with code 13 when the main module waits on a top-level await that never settles, as Node does', async () => {
    const run = await embedded({ kind: 'file', path: join(root, 'unsettled.mjs') }, [join(root, 'unsettled.mjs')]);
    const real = spawnSync(process.execPath, ['unsettled.mjs'], { cwd: root, encoding: 'utf8' });
    expect(run).toEqual({ stdout: real.stdout, stderr: real.stderr, exitCode: real.status });
    expect(run.exitCode).toBe(13);
  });

  it('points an uncaught error at its line in the module', async () => {
    const run = await embedded({ kind: 'file', path: join(root, 'throws.mjs') }, [join(root, 'throws.mjs')]);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`file://${root}/throws.mjs:4\n  throw new Error('boom at line 4');\n`);
    expect(run.stderr).toContain(`Error: boom at line 4\n    at boom (file://${root}/throws.mjs:4:`);
  });

  it('runs TypeScript ES modules (.mts), their types stripped by the same transform', async () => {
    const run = await embedded({ kind: 'file', path: join(root, 'typed/a.mts') }, [join(root, 'typed/a.mts')]);
    expect(run).toEqual({ stdout: '4 true\n', stderr: '', exitCode: 0 });
  });

  it('prints a syntax error with the file, line and caret, an import of a name not exported, and a missing module', async () => {
    const bad = await embedded({ kind: 'file', path: join(root, 'bad.mjs') }, [join(root, 'bad.mjs')]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^file://${root}/bad.mjs:2\nconst = 2;\n {6}\\^\n\nSyntaxError: Unexpected token`));
    const wrongName = await embedded({ kind: 'file', path: join(root, 'wrong-name.mjs') }, [join(root, 'wrong-name.mjs')]);
    expect(wrongName.exitCode).toBe(1);
    expect(wrongName.stdout).toBe('');
    expect(wrongName.stderr).toMatch(
      new RegExp(`^file://${root}/wrong-name.mjs:2\nimport \\{ tripple \\}.*\n\\^\n\nSyntaxError: The requested module '\\./node_modules/esm-pkg/lib/math\\.js' does not provide an export named 'tripple'`),
    );
    const missing = await embedded({ kind: 'file', path: join(root, 'missing.mjs') }, [join(root, 'missing.mjs')]);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(`Cannot find module '${root}/nope.mjs' imported from ${root}/missing.mjs`);
    expect(missing.stderr).toContain("code: 'ERR_MODULE_NOT_FOUND'");
  });

  it('runs an .mjs test file for node --test', async () => {
    const run = await embedded({ kind: 'test-file', path: join(root, 'calc.test.mjs') }, [join(root, 'calc.test.mjs')]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('ok 1 - doubles');
  });

  it("keeps ERR_REQUIRE_ESM for a CommonJS require of an ES module, as the 'native' path does", async () => {
    const code = "try { require('./esm-dep.mjs') } catch (e) { console.log(e.code) }";
    expect((await embedded({ kind: 'eval', code, print: false, module: false }, [])).stdout).toBe('ERR_REQUIRE_ESM\n');
  });
});
