// The browser engine through the sandbox frame's Node stand-in (the same relay, engine entry and host side as in the
// browser, with Node's V8): programs print what real Node prints, the event loop runs promise jobs and timers in
// Node's order, process.exit and uncaught errors end the process with Node's codes, a tight loop is stopped by its
// timeout, --engine picks the engine, and a program that prints without end is stopped at the output cap.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../../testing/node-workspace';

const ORDER = `
const fs = require('fs');
console.log('sync', fs.readFileSync(__filename, 'utf8').length > 0, typeof require('path').join);
setTimeout(() => console.log('timeout 20'), 20);
setImmediate(() => console.log('immediate'));
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('promise'));
queueMicrotask(() => console.log('microtask'));
(async () => { await null; console.log('async'); })();
process.on('exit', (code) => console.log('exit', code));
`;

// ES modules as the browser engine loads them: transformed to CommonJS by the host (module-transform/).
const ESM = {
  'esm/main.mjs': "import { double } from './lib.mjs';\nimport cjs from './old.cjs';\nconst late = await import('./lib.mjs');\nconsole.log(double(21), cjs.name, late.double === double, import.meta.url.endsWith('/esm/main.mjs'));\n",
  'esm/lib.mjs': 'export const double = (n) => n * 2;\n',
  'esm/old.cjs': "module.exports = { name: 'old' };\n",
};

/** What real Node prints for `source` saved as `name` (run in a temporary folder). */
function realNode(name: string, source: string, args: string[] = []): { output: string; exitCode: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'conch-browser-engine-'));
  try {
    writeFileSync(join(dir, name), source);
    const run = spawnSync(process.execPath, [name, ...args], { cwd: dir, encoding: 'utf8' });
    return { output: run.stdout + run.stderr, exitCode: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the browser engine', () => {
  const ws = nodeWorkspace({ 'order.js': ORDER, 'typed.ts': 'const n: number = 41;\nconsole.log(n + 1);\n', ...ESM }, { engine: 'browser' });

  it("runs a CommonJS program with fs, and its promise jobs, ticks and timers in Node's order", async () => {
    expect(await ws.run('node order.js')).toEqual(realNode('order.js', ORDER));
  });

  it('loads ES modules, CommonJS from them, import() and import.meta as Node does', async () => {
    expect(await ws.run('node esm/main.mjs')).toEqual({ output: '42 old true true\n', exitCode: 0 });
    expect(await ws.run(`node --input-type=module -e "const { double } = await import('./esm/lib.mjs'); console.log(double(4))"`)).toEqual({ output: '8\n', exitCode: 0 });
  });

  it('finds a package the program itself writes into node_modules after a require of it failed (the resolution listings are dropped)', async () => {
    const program = "const fs = require('fs'); try { require('late-pkg'); } catch (e) { console.log(e.code); } fs.mkdirSync('node_modules/late-pkg', { recursive: true }); fs.writeFileSync('node_modules/late-pkg/index.js', 'module.exports = 7;'); console.log(require('late-pkg'));";
    await ws.write({ 'node_modules/.keep': '', 'late.js': program });
    for (const engine of ['browser', 'quickjs']) {
      await ws.run('rm -rf node_modules/late-pkg');
      expect(await ws.run(`node --engine=${engine} late.js`)).toEqual({ output: 'MODULE_NOT_FOUND\n7\n', exitCode: 0 });
    }
  });

  it('is the browser\'s own engine, where --engine=quickjs runs the fallback', async () => {
    expect(await ws.run(`node -p "typeof WebAssembly"`)).toEqual({ output: 'object\n', exitCode: 0 });
    // What Node 20 has not, the program does not see either.
    expect(await ws.run(`node -p "[typeof indexedDB, typeof XMLHttpRequest, typeof navigator, typeof importScripts, typeof location].join()"`)).toEqual({ output: 'undefined,undefined,undefined,undefined,undefined\n', exitCode: 0 });
    expect(await ws.run(`node --engine=quickjs -p "typeof WebAssembly"`)).toEqual({ output: 'undefined\n', exitCode: 0 });
    expect(await ws.run('node typed.ts')).toEqual({ output: '42\n', exitCode: 0 });
  });

  it("ends with process.exit's code, and prints an uncaught error or an unhandled rejection as Node does", async () => {
    expect(await ws.run(`node -e "console.log('before'); process.exit(7); console.log('after')"`)).toEqual({ output: 'before\n', exitCode: 7 });
    const thrown = await ws.run(`node -e "setTimeout(() => { throw new TypeError('late') }, 5)"`);
    expect(thrown.exitCode).toBe(1);
    expect(thrown.output).toContain('TypeError: late');
    const rejected = await ws.run(`node -e "Promise.reject(new Error('nobody listens'))"`);
    expect(rejected.exitCode).toBe(1);
    expect(rejected.output).toContain('Error: nobody listens');
  });

  it('stops a tight loop at its timeout by ending its worker, and the next program runs', async () => {
    const started = performance.now();
    const looped = await ws.run(`node -e "while (true) {}"`, { timeoutMs: 400 });
    expect(looped.exitCode).toBeNull();
    expect(performance.now() - started).toBeLessThan(400 + 1500);
    expect(await ws.run(`node -p "6 * 7"`)).toEqual({ output: '42\n', exitCode: 0 });
  });
});

describe('choosing the engine', () => {
  const ws = nodeWorkspace({});

  it('runs QuickJS when no sandbox frame was handed over, and says why --engine=browser cannot run', async () => {
    expect(await ws.run(`node -p "typeof WebAssembly"`)).toEqual({ output: 'undefined\n', exitCode: 0 });
    const refused = await ws.run(`node --engine=browser -e 1`);
    expect(refused.exitCode).toBe(9);
    expect(refused.output).toContain('the browser engine is not available here (QuickJS: no sandbox frame was handed to this runtime)');
    expect((await ws.run('node --engine=v8 -e 1')).output).toContain('--engine must be "browser" or "quickjs"');
  });
});

describe('the output cap', () => {
  it('stops a program that prints without end, on either engine, and says why', async () => {
    const { InMemoryFs } = await import('just-bash');
    const { EnginePool } = await import('../engine/pool');
    const { createNodeSandboxEngine } = await import('./node-stand-in');
    const job = {
      entry: { kind: 'eval' as const, code: "for (;;) console.log('x'.repeat(1000))", print: false, module: false },
      argv: ['/usr/local/bin/node'], execArgv: [], cwd: '/', env: {}, stdin: '', testOnly: false, testNumberOffset: 0, memoryLimitBytes: 256 * 2 ** 20,
    };
    for (const [pool, modules] of [[new EnginePool(createNodeSandboxEngine(), 2 ** 20), 'transform'], [new EnginePool(undefined, 2 ** 20), 'native']] as const) {
      try {
        const result = await pool.run({ ...job, modules }, new InMemoryFs());
        expect(result.exitCode).not.toBe(0);
        expect(result.stdout.length).toBeLessThanOrEqual(2 ** 20);
        expect(result.stderr).toContain('node: the program printed more than 1 MB and was stopped.');
      } finally {
        pool.dispose();
      }
    }
  });
});
