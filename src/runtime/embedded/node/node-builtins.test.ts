// Node's core modules in the embedded `node`, each checked for what a script sees, with the output real Node 20
// prints for the same script.

import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { nodeWorkspace } from '../testing/node-workspace';

const scripts: Record<string, string> = {
  'fs.js': `
const fs = require('fs');
fs.mkdirSync('out/deep', { recursive: true });
fs.writeFileSync('out/deep/a.txt', 'alpha');
fs.appendFileSync('out/deep/a.txt', '+beta');
console.log(fs.readFileSync('out/deep/a.txt', 'utf8'), fs.readFileSync('out/deep/a.txt').length);
console.log(fs.existsSync('out/deep/a.txt'), fs.existsSync('out/none'), fs.statSync('out/deep').isDirectory(), fs.statSync('out/deep/a.txt').size);
console.log(fs.readdirSync('out'), fs.readdirSync('out', { withFileTypes: true }).map((d) => d.name + ':' + d.isDirectory()));
fs.renameSync('out/deep/a.txt', 'out/b.txt');
fs.copyFileSync('out/b.txt', 'out/c.txt');
fs.unlinkSync('out/b.txt');
try { fs.readFileSync('out/b.txt') } catch (e) { console.log(e.code, e.syscall, e.message) }
fs.readFile('out/c.txt', 'utf8', (err, text) => {
  console.log('callback', err, text);
  fs.promises.writeFile('out/d.txt', 'from promises').then(() => fs.promises.readFile('out/d.txt', 'utf8')).then((t) => {
    console.log('promise', t);
    fs.rmSync('out/deep', { recursive: true });
    console.log(fs.readdirSync('out'));
  });
});
`,
  'path-process.js': `
const path = require('path');
console.log(path.join('/a', 'b', '../c'), path.resolve('x'), path.basename('/q/w.txt', '.txt'), path.extname('f.tar.gz'), path.relative('/a/b', '/a/c/d'), path.sep);
console.log(process.argv.slice(2), process.env.GREETING, process.cwd(), process.platform, typeof process.hrtime()[0], typeof process.hrtime.bigint());
process.stdout.write('out ');
process.stderr.write('err\\n');
process.nextTick(() => console.log('tick', process.exitCode));
process.exitCode = 3;
`,
  'exit.js': "process.on('exit', (code) => console.log('exiting with', code)); console.log('before'); process.exit(4); console.log('never');",
  // tape's way of ending: its 'exit' listener calls process.exit, which must not emit 'exit' again.
  'exit-in-listener.js': "let calls = 0; process.on('exit', (code) => { calls++; console.log('listener', calls, code); process.exit(code || 5); });",
  'buffer-events.js': `
const { EventEmitter } = require('events');
const e = new EventEmitter();
e.once('hi', (who) => console.log('hi', who));
console.log(e.emit('hi', 'there'), e.emit('hi', 'again'), e.listenerCount('hi'));
const b = Buffer.from('héllo');
console.log(b.length, b.toString('hex'), b.toString('base64'), Buffer.concat([b, Buffer.alloc(2)]).length, Buffer.isBuffer(b), b.equals(Buffer.from('héllo')));
console.log(require('buffer').Buffer === Buffer, atob(btoa('ab')));
`,
  'util-assert.js': `
const util = require('util');
console.log(util.format('%s=%d %j', 'x', 42, { a: 1 }), util.inspect({ a: [1, 2], b: 'x' }));
util.promisify((v, cb) => setTimeout(() => cb(null, v * 2), 1))(21).then((v) => console.log('promisified', v));
const assert = require('assert');
assert.strictEqual(1, 1); assert.deepStrictEqual({ a: [1] }, { a: [1] });
try { assert.strictEqual(1, 2) } catch (e) { console.log(e.code, e.name) }
try { require('assert/strict').deepEqual({ a: 1 }, { a: '1' }) } catch (e) { console.log('strict', e.code) }
assert.throws(() => { throw new TypeError('x') }, TypeError);
console.log(new Map([[1, { a: 2 }]]), new Set([1, 'x']), Symbol('s'), 10n, new Date(0), new Uint8Array(2), class A {}, [undefined, null]);
`,
  'misc.js': `
const os = require('os');
console.log(os.EOL === '\\n', os.platform(), typeof os.tmpdir(), typeof os.cpus().length);
const { URL, fileURLToPath, pathToFileURL } = require('url');
const u = new URL('https://example.com:8080/a/b?x=1&y=2#h');
u.searchParams.append('z', '3');
console.log(u.host, u.pathname, u.searchParams.get('y'), u.href, fileURLToPath('file:///tmp/a%20b'), pathToFileURL('/tmp/c').href);
const { StringDecoder } = require('string_decoder');
const d = new StringDecoder('utf8');
console.log(d.write(Buffer.from([0xe2, 0x82])) + d.end(Buffer.from([0xac])));
const crypto = require('crypto');
console.log(crypto.createHash('md5').update('abc').digest('hex'), crypto.createHash('sha1').update('abc').digest('hex'));
console.log(crypto.createHash('sha256').update('a').update('bc').digest('base64'));
console.log(/^[0-9a-f-]{36}$/.test(crypto.randomUUID()), crypto.getRandomValues(new Uint8Array(4)).length);
const { Readable, Transform } = require('stream');
const upper = new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()) } });
let collected = '';
Readable.from(['a', 'b', 'c']).pipe(upper).on('data', (c) => { collected += c }).on('end', () => console.log('stream', collected));
const timers = require('timers/promises');
setTimeout(() => {
  console.log('timeout');
  setImmediate(() => { console.log('immediate'); timers.setTimeout(1, 'later').then((v) => console.log('timers', v)); });
}, 1);
console.log(new TextDecoder().decode(new TextEncoder().encode('ü')), structuredClone(new Map([[1, { a: 2 }]])).get(1).a);
`,
};

describe('node core modules', () => {
  const ws = nodeWorkspace(scripts);

  it('fs: sync, callback and promise forms over the workspace, with Node error codes', async () => {
    const result = await ws.run('node fs.js');
    expect(result.output).toBe(
      [
        'alpha+beta 10',
        'true false true 10',
        "[ 'deep' ] [ 'deep:true' ]",
        "ENOENT open ENOENT: no such file or directory, open 'out/b.txt'",
        'callback null alpha+beta',
        'promise from promises',
        "[ 'c.txt', 'd.txt' ]",
        '',
      ].join('\n'),
    );
    expect(new TextDecoder().decode(await ws.runtime.readFile('out/d.txt'))).toBe('from promises');
  });

  it('fs reads and writes files larger than the shared reply buffer (which grows to fit)', async () => {
    const big = 'x'.repeat(3 * 1024 * 1024 + 7);
    await ws.write({ 'big.txt': big });
    const result = await ws.run(
      `node -e "const fs = require('fs'); const a = fs.readFileSync('big.txt', 'utf8'); fs.writeFileSync('big2.txt', a + a); console.log(a.length, fs.readFileSync('big2.txt').length)"`,
    );
    expect(result.output).toBe(`${big.length} ${2 * big.length}\n`);
  });

  it('fs writes reach the shell and the runtime watch', async () => {
    const seen: string[] = [];
    const stop = ws.runtime.watch((paths) => seen.push(...paths));
    await ws.run(`node -e "require('fs').writeFileSync('watched.txt', 'w')"`);
    await expect.poll(() => seen).toContain('watched.txt');
    stop();
    expect((await ws.run('cat watched.txt')).output).toBe('w');
  });

  it('path and process: argv, env, cwd, platform, hrtime, stdout/stderr, nextTick, exitCode', async () => {
    const result = await ws.run('GREETING=hey node path-process.js one two');
    expect(result.output).toBe(
      "/a/c /home/project/x w .gz ../c/d /\n[ 'one', 'two' ] hey /home/project linux number bigint\nout tick 3\nerr\n",
    );
    expect(result.exitCode).toBe(3);
  });

  it('fs.access checks the execute bit: a plain file is not X_OK, a chmod +x one is', async () => {
    const script =
      "const fs = require('fs'); fs.writeFileSync('plain.sh', 'x'); fs.writeFileSync('run.sh', 'x'); fs.chmodSync('run.sh', 0o755);" +
      "for (const f of ['plain.sh', 'run.sh']) { try { fs.accessSync(f, fs.constants.X_OK); console.log(f, 'ok') } catch (e) { console.log(f, e.code, e.syscall) } }" +
      "fs.access('plain.sh', fs.constants.F_OK | fs.constants.X_OK, (e) => console.log('callback', e && e.code));" +
      "fs.promises.access('run.sh', fs.constants.X_OK).then(() => console.log('promise ok'));";
    const result = await ws.run(`node -e "${script}"`);
    expect(result.output).toBe('plain.sh EACCES access\nrun.sh ok\ncallback EACCES\npromise ok\n');
  });

  it('punycode converts as Node 20 does (the legacy url package and others require it)', async () => {
    const script = "const p = require('punycode'); console.log(p.toASCII('mañana.com'), p.toUnicode('xn--maana-pta.com'), p.encode('ü'), p.ucs2.decode('\\u{1F600}').length)";
    const result = await ws.run(`node -e "${script}"`);
    expect(result.output).toBe('xn--maana-pta.com mañana.com tda 1\n');
    expect(result.exitCode).toBe(0);
  });

  it('process.exit stops at once, after the exit listeners', async () => {
    expect(await ws.run('node exit.js')).toEqual({ output: 'before\nexiting with 4\n', exitCode: 4 });
    expect(await ws.run('node exit-in-listener.js')).toEqual({ output: 'listener 1 0\n', exitCode: 5 });
  });

  it('Buffer and events', async () => {
    expect((await ws.run('node buffer-events.js')).output).toBe('hi there\ntrue false 0\n6 68c3a96c6c6f aMOpbGxv 8 true true\ntrue ab\n');
  });

  it('util (format, inspect, promisify) and assert, assert/strict', async () => {
    expect((await ws.run('node util-assert.js')).output).toBe(
      "x=42 {\"a\":1} { a: [ 1, 2 ], b: 'x' }\nERR_ASSERTION AssertionError\nstrict ERR_ASSERTION\n" +
        "Map(1) { 1 => { a: 2 } } Set(2) { 1, 'x' } Symbol(s) 10n 1970-01-01T00:00:00.000Z Uint8Array(2) [ 0, 0 ] [class A] [ undefined, null ]\n" +
        'promisified 42\n',
    );
  });

  it('os, url, string_decoder, crypto, stream, timers and timers/promises, web globals', async () => {
    expect((await ws.run('node misc.js')).output).toBe(
      'true linux string number\n' +
        'example.com:8080 /a/b 2 https://example.com:8080/a/b?x=1&y=2&z=3#h /tmp/a b file:///tmp/c\n' +
        '€\n' +
        '900150983cd24fb0d6963f7d28e17f72 a9993e364706816aba3e25717850c26c9cd0d89d\n' +
        'ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\n' +
        'true 4\n' +
        'ü 2\n' +
        'stream ABC\ntimeout\nimmediate\ntimers later\n',
    );
  });

  it('process.emitWarning: a warning event on the next tick, then the line real Node prints (code, detail, the hint once)', async () => {
    const script =
      "process.on('warning', (w) => console.log('event', w.name, w.code, w.message));" +
      "process.emitWarning('Hello world', 'TestDeprecation', 'CODE'); console.log('sync first');" +
      "process.emitWarning('second', { type: 'CustomWarning', detail: 'more to say' });";
    const normalize = (text: string) => text.replace(/\(node:\d+\)/g, '(node:PID)');
    const real = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    await ws.write({ 'warn.js': script });
    const embedded = await ws.run('node warn.js 2>err.txt; cat err.txt');
    expect(normalize(embedded.output)).toBe(normalize(real.stdout + real.stderr));
    expect((await ws.run('node --no-warnings warn.js 2>&1')).output).toBe(real.stdout);
    expect((await ws.run('NODE_OPTIONS="--max-old-space-size=512 --no-warnings" node warn.js 2>&1')).output).toBe(real.stdout);
  });

  it('modules the embedded runtime cannot offer say so and name the WebContainer runtime', async () => {
    for (const name of ['dgram', 'net', 'http', 'node:https']) {
      const result = await ws.run(`node -e "require('${name}')"`);
      expect(result.exitCode).toBe(1);
      expect(result.output).toContain(`\`${name.replace('node:', '')}\` is not available in Conch's embedded runtime; use the WebContainer runtime for it`);
    }
  });
});
