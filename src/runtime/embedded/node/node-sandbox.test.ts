// The embedded `node` as a sandbox and as a command: code it runs cannot reach the page, a runaway loop stops
// within 200 ms of a timeout or an abort, memory is capped with a clear error, and invocations answer as node does.

import { describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../testing/node-workspace';

const STOP_BUDGET_MS = 200;

describe('node sandbox', () => {
  const ws = nodeWorkspace({
    'boom.js': "function explode() {\n  throw new Error('boom');\n}\nexplode();\n",
    'boom.mjs': "const x = 1;\nthrow new TypeError('esm boom ' + x);\n",
    'async-boom.js': "setTimeout(() => { null.property }, 1);\n",
  });

  it('offers nothing of the page: no IndexedDB, DOM, storage, cookies or fetch', async () => {
    const probe = ['indexedDB', 'document', 'window', 'localStorage', 'sessionStorage', 'fetch', 'XMLHttpRequest', 'WebSocket', 'importScripts', 'postMessage', 'navigator', 'caches']
      .map((name) => `typeof ${name}`)
      .join(', ');
    const result = await ws.run(`node -p "[${probe}].join(' ')"`);
    expect(result.output).toBe(`${Array(12).fill('undefined').join(' ')}\n`);
    const viaGlobal = await ws.run(`node -p "Object.getOwnPropertyNames(globalThis).filter((n) => /indexedDB|document|storage|fetch|cookie/i.test(n)).length"`);
    expect(viaGlobal.output).toBe('0\n');
  });

  it('stops a runaway loop within 200 ms of the timeout', async () => {
    const timeoutMs = 300;
    const started = performance.now();
    const result = await ws.run(`node -e "while (true) {}"`, { timeoutMs });
    const elapsed = performance.now() - started;
    expect(result.exitCode).toBeNull();
    expect(result.output).toContain('timed out');
    expect(elapsed - timeoutMs).toBeLessThan(STOP_BUDGET_MS);
    expect((await ws.run('node -p "1 + 1"')).output).toBe('2\n'); // and node works again after
  });

  it('stops a runaway loop within 200 ms of an abort', async () => {
    const controller = new AbortController();
    const running = ws.run(`node -e "let i = 0; for (;;) { i++ }"`, { signal: controller.signal });
    const ready = await ws.run('node -e 1'); // a second command proves the engine is busy in the first, not queued
    void ready;
    const aborted = performance.now();
    controller.abort();
    const result = await running;
    expect(performance.now() - aborted).toBeLessThan(STOP_BUDGET_MS);
    expect(result.exitCode).toBeNull();
  });

  it('caps memory at 256 MB by default (lower with --max-old-space-size) and says so when a program hits the cap', async () => {
    const over = await ws.run(`node -e "new Uint8Array(300 * 2 ** 20)"`);
    expect(over.exitCode).toBe(134);
    expect(over.output).toContain('JavaScript heap out of memory');
    expect(over.output).toContain("the embedded runtime's memory cap (256 MB)");
    const growing = await ws.run(`node --max-old-space-size=24 -e "const keep = []; for (;;) keep.push(new Uint8Array(1 << 20))"`);
    expect(growing.exitCode).toBe(134);
    expect(growing.output).toContain('memory cap (24 MB)');
  });

  it('prints an uncaught error with the workspace file, line and caret, and exits 1', async () => {
    const result = await ws.run('node boom.js');
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/^\/home\/project\/boom\.js:2\n {2}throw new Error\('boom'\);\n {2}\^\n\nError: boom\n/); // as Node prints it
    expect(result.output).toContain('at explode (/home/project/boom.js:2:');
    expect(result.output).toContain('Node.js v20');
    const esm = await ws.run('node boom.mjs');
    expect(esm.exitCode).toBe(1);
    expect(esm.output).toContain('TypeError: esm boom 1');
    expect(esm.output).toContain('file:///home/project/boom.mjs:2');
    const later = await ws.run('node async-boom.js');
    expect(later.exitCode).toBe(1);
    expect(later.output).toContain("TypeError: cannot read property 'property' of null");
    expect(later.output).toContain('/home/project/async-boom.js:1');
  });

  it('answers -p, stdin scripts, --version and bad options as node does', async () => {
    expect(await ws.run(`node -p "({ a: [1, 'b'] })"`)).toEqual({ output: "{ a: [ 1, 'b' ] }\n", exitCode: 0 });
    expect(await ws.run(`echo "console.log(process.argv.length, 6 * 7)" | node`)).toEqual({ output: '1 42\n', exitCode: 0 });
    expect(await ws.run(`echo "console.log(require('fs').readFileSync(0, 'utf8').trim())" > read.js && echo piped | node read.js`)).toEqual({ output: 'piped\n', exitCode: 0 });
    expect(await ws.run(`node --input-type=module -e "import { sep } from 'node:path'; console.log(sep, import.meta.url)"`)).toEqual({
      output: '/ file:///home/project/[eval1]\n',
      exitCode: 0,
    });
    expect((await ws.run('node --version')).output).toMatch(/^v20\.\d+\.\d+\n$/);
    const bad = await ws.run('node --inspect-brk x.js');
    expect(bad.exitCode).toBe(9);
    expect(bad.output).toContain('bad option: --inspect-brk');
  });
});
