// The built-ins and loader behaviours that TypeScript, Prettier and ESLint need (issue 25, part 4), each checked with a
// small script against what real Node 20 prints for it. The tools themselves run in bench/checkers.bench.ts.

import { describe, expect, it } from 'vitest';
import { nodeWorkspace } from '../testing/node-workspace';

const files: Record<string, string> = {
  'perf.js': `
const { performance, PerformanceObserver } = require('perf_hooks');
performance.mark('start');
for (let i = 0; i < 1e5; i++);
performance.mark('end');
const m = performance.measure('loop', 'start', 'end');
console.log(performance === globalThis.performance, m.name, m.entryType, m.duration >= 0, typeof PerformanceObserver);
console.log(performance.getEntriesByName('start').length, performance.getEntriesByType('mark').map((e) => e.name));
performance.clearMarks();
console.log(performance.getEntriesByType('mark').length, performance.getEntriesByType('measure').length);
try { performance.measure('x', 'nope') } catch (e) { console.log(e.name, e.code) }
`,
  'v8.js': `
const v8 = require('v8');
const stats = v8.getHeapStatistics();
console.log(stats.heap_size_limit > stats.used_heap_size, stats.used_heap_size > 0, !v8.startupSnapshot.isBuildingSnapshot());
console.log(v8.deserialize(v8.serialize({ a: [1, 'two', null], b: { c: true } })), Buffer.isBuffer(v8.serialize(1)));
`,
  'rl.js': `
const readline = require('readline');
let written = '';
const out = { write: (t) => { written += t; return true; } };
readline.cursorTo(out, 0); readline.clearLine(out, 0); readline.moveCursor(out, 0, -1); readline.clearLine(out, 1);
console.log(JSON.stringify(written));
const rl = readline.createInterface({ input: process.stdin });
const lines = [];
rl.on('line', (line) => lines.push(line));
rl.on('close', () => console.log(lines));
`,
  'rl-async.mjs': `
import { createInterface } from 'node:readline';
const lines = [];
for await (const line of createInterface({ input: process.stdin })) lines.push(line.toUpperCase());
console.log(lines);
`,
  'tty.js': "const tty = require('tty'); console.log(tty.isatty(0), tty.isatty(1), tty.isatty(2), typeof tty.WriteStream);",
  'workers.js': `
const { isMainThread, threadId, parentPort, workerData, Worker } = require('node:worker_threads');
console.log(isMainThread, threadId, parentPort, workerData);
try { new Worker('./x.js') } catch (e) { console.log(e.code, e.message) }
`,
  'lib/target.mjs': 'export const where = "lib";',
  'lib/inner/caller.cjs': "const load = new Function('specifier', 'return import(specifier)');\nmodule.exports = () => load('../target.mjs');",
  'function-import.js': `
require('./lib/inner/caller.cjs')().then((m) => console.log('imported from', m.where), (e) => console.log('failed', e.message));
console.log(new Function('a', 'b', 'return a + b')(2, 3), (function () {}).constructor === Function, new Function() instanceof Function, (() => 1).constructor.name, Function.length);
`,
  'counted.mjs': 'globalThis.loads = (globalThis.loads ?? 0) + 1; export const n = globalThis.loads;',
  'query.mjs': `
const a = await import('./counted.mjs?v=1');
const again = await import('./counted.mjs?v=1');
const b = await import(new URL('./counted.mjs?v=2', import.meta.url).href);
console.log(a.n, again.n, b.n);
`,
  'table/index.js': "const table = {\n  importName: '__decorate',\n  exportName: 'x',\n};\nmodule.exports = table;",
  'keys.js': "console.log(require('./table').importName);",
  'stack.js': `
function findCaller() {
  const saved = Error.prepareStackTrace;
  Error.prepareStackTrace = (_, sites) => sites;
  const holder = {};
  Error.captureStackTrace(holder, findCaller);
  const sites = holder.stack;
  Error.prepareStackTrace = saved;
  return sites[0];
}
function caller() { return findCaller(); }
const site = caller();
console.log(require('path').basename(site.getFileName()), site.getLineNumber(), site.getFunctionName(), typeof site.getColumnNumber());
const plain = {};
Error.captureStackTrace(plain);
console.log(typeof plain.stack, plain.stack.includes('stack.js'));
`,
};

describe('built-ins the checkers need', () => {
  const ws = nodeWorkspace(files);
  const output = async (command: string) => {
    const result = await ws.run(command);
    expect(result.exitCode, result.output).toBe(0);
    return result.output;
  };

  it('perf_hooks: marks and measures on the global performance, a missing mark a SyntaxError', async () => {
    expect(await output('node perf.js')).toBe("true loop measure true function\n1 [ 'start', 'end' ]\n0 1\nSyntaxError 12\n");
  });

  it('v8: heap statistics within the memory cap, no snapshot being built, serialize round trip', async () => {
    expect(await output('node v8.js')).toBe("true true true\n{ a: [ 1, 'two', null ], b: { c: true } } true\n");
  });

  it('readline: cursor escapes on a stream, lines of stdin through events and async iteration', async () => {
    expect(await output("printf 'one\\ntwo\\nthree' | node rl.js")).toBe(`"\\u001b[1G\\u001b[2K\\u001b[1A\\u001b[0K"\n[ 'one', 'two', 'three' ]\n`);
    expect(await output("printf 'a\\nb\\n' | node rl-async.mjs")).toBe("[ 'A', 'B' ]\n");
  });

  it('tty: no descriptor is a terminal', async () => {
    expect(await output('node tty.js')).toBe('false false false function\n');
  });

  it('worker_threads loads on the main thread; starting a Worker says it is not available', async () => {
    expect(await output('node workers.js')).toBe(
      "true 0 null null\nERR_CONCH_UNAVAILABLE `worker_threads` Worker is not available in Conch's embedded runtime; use the WebContainer runtime for it\n",
    );
  });

  it("import() inside new Function resolves from the calling file, as Prettier's bin needs", async () => {
    expect(await output('node function-import.js')).toBe('5 true true Function 1\nimported from lib\n');
  });

  it("a file URL's query names another instance of the module (ESLint's ?mtime= on its config)", async () => {
    expect(await output('node query.mjs')).toBe('1 1 2\n');
  });

  it('a CommonJS file with an `importName:` key at a line start is not taken for an ES module', async () => {
    expect(await output('node keys.js')).toBe('__decorate\n');
  });

  it('Error.captureStackTrace gives Error.prepareStackTrace call sites, above the given function', async () => {
    expect(await output('node stack.js')).toBe('stack.js 11 caller number\nstring true\n');
  });
});
