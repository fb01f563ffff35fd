// child_process in the embedded node: the same script prints the same as under real Node; children nest (node
// running node running the shell), see their env and cwd, run git against the baseline, and end with their parent's
// timeout, abort or kill, leaving no engine running; the host refuses malformed requests from the guest.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../in-process';
import { nodeWorkspace } from '../testing/node-workspace';
import { CHILD_PROCESS_SEMANTICS } from '../testing/child-process-semantics';

/** Longest a stopped child may take to end (the engine's stop grace is 100 ms). */
const STOP_BUDGET_MS = 1000;

describe('child_process', () => {
  const ws = nodeWorkspace({
    'semantics.js': CHILD_PROCESS_SEMANTICS,
    'sub/.keep': '',
    'nested/outer.js': "const { execSync } = require('child_process');\nprocess.stdout.write('outer ' + execSync('node inner.js', { cwd: __dirname, encoding: 'utf8' }));\n",
    'nested/inner.js': "const { execFileSync } = require('child_process');\nprocess.stdout.write('inner ' + execFileSync('echo', ['from echo', process.env.LEVEL || 'unset'], { encoding: 'utf8' }));\n",
    'ticker.js': "setInterval(() => require('fs').appendFileSync(process.argv[2], 'x'), 10);\n",
  });

  it('behaves as in real Node: sync and async forms, exit codes, stdio, stdin, kill, timeouts, ENOENT, env, cwd', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conch-child-process-'));
    try {
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'semantics.js'), CHILD_PROCESS_SEMANTICS);
      const real = spawnSync(process.execPath, ['semantics.js'], { cwd: dir, encoding: 'utf8' });
      expect(real.status).toBe(0);
      const mine = await ws.run('node semantics.js');
      expect(mine).toEqual({ output: real.stdout + real.stderr, exitCode: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs a child's child: node running node running echo, with the env given on the way", async () => {
    const result = await ws.run('LEVEL=two node nested/outer.js');
    expect(result).toEqual({ output: 'outer inner from echo two\n', exitCode: 0 });
    const spawned = await ws.run(`node -e "require('child_process').spawn('node', ['-p', 'process.argv[1] + process.cwd()', 'arg'], { cwd: 'sub', stdio: 'inherit' }).on('close', (c) => console.log('closed', c))"`);
    expect(spawned.output).toBe(`arg${ws.runtime.workdir}/sub\nclosed 0\n`);
  });

  it("streams a node child's output while it runs: the parent reads each line before the child ends", async () => {
    const child = "let n = 0; const t = setInterval(() => { console.log('tick ' + ++n); if (n === 3) clearInterval(t); }, 30);";
    const parent = `const c = require('child_process').spawn('node', ['-e', "${child}"]); let ended = false; c.stdout.setEncoding('utf8'); c.stdout.on('data', (d) => console.log('got', JSON.stringify(d), ended ? 'after exit' : 'while running')); c.on('exit', () => { ended = true; }); c.on('close', (code) => console.log('close', code));`;
    await ws.write({ 'stream.js': parent });
    const result = await ws.run('node stream.js');
    expect(result).toEqual({ output: 'got "tick 1\\n" while running\ngot "tick 2\\n" while running\ngot "tick 3\\n" while running\nclose 0\n', exitCode: 0 });
  });

  it("sends an inherited child's output to the parent's stdout and stderr in order, and its exit code back", async () => {
    const script = "const cp = require('child_process'); console.log('before'); const r = cp.spawnSync('sh', ['-c', 'echo child out; echo child err >&2; exit 5'], { stdio: 'inherit' }); console.log('after', r.status, r.stdout);";
    // (The shell keeps a node process's stdout and stderr apart, so they are checked apart.)
    const result = await ws.run(`node -e "${script}" 2>err.txt`);
    expect(result).toEqual({ output: 'before\nchild out\nafter 5 null\n', exitCode: 0 });
    expect((await ws.run('cat err.txt')).output).toBe('child err\n');
    const ignored = await ws.run(`node -e "require('child_process').spawnSync('echo', ['hidden'], { stdio: 'ignore' }); console.log('shown')"`);
    expect(ignored.output).toBe('shown\n');
  });

  it('kills a runaway node child at its timeout, synchronously and asynchronously, and reports the signal', async () => {
    const started = performance.now();
    const sync = await ws.run(`node -e "const r = require('child_process').spawnSync('node', ['-e', 'while (true) {}'], { timeout: 300, killSignal: 'SIGKILL' }); console.log(r.status, r.signal, r.error.code)"`);
    expect(sync).toEqual({ output: 'null SIGKILL ETIMEDOUT\n', exitCode: 0 });
    expect(performance.now() - started).toBeLessThan(300 + STOP_BUDGET_MS + 2000);
    const killed = await ws.run(`node -e "const c = require('child_process').spawn('node', ['-e', 'while (true) {}']); c.on('spawn', () => setTimeout(() => c.kill('SIGINT'), 200)); c.on('exit', (code, signal) => console.log(code, signal, c.killed))"`);
    expect(killed).toEqual({ output: 'null SIGINT true\n', exitCode: 0 });
  });

  it("ends every child when the parent is aborted: a grandchild ticking into a file stops ticking, no engine left running", async () => {
    const controller = new AbortController();
    const chain = `node -e "require('child_process').spawn('node', ['-e', \\"require('child_process').execSync('node ticker.js ticks.txt')\\"]); setInterval(() => {}, 1000)"`;
    const running = ws.run(chain, { signal: controller.signal });
    const size = async () => ((await ws.runtime.stat('ticks.txt')) as { size: number } | null)?.size ?? 0;
    for (let i = 0; i < 200 && (await size()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await size()).toBeGreaterThan(0); // the grandchild did run
    controller.abort();
    expect((await running).exitCode).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, STOP_BUDGET_MS));
    const settled = await size();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await size()).toBe(settled);
    expect((await ws.run(`node -p "require('child_process').execSync('echo again').toString().trim()"`)).output).toBe('again\n');
  });

  it("refuses a malformed request from the guest with a message naming what is wrong, and runs nothing", async () => {
    const probe = (spec: string) => `node -e "try { __conchHost.fs('proc.run', JSON.stringify([${spec}])) } catch (e) { console.log(e.code, e.message) }"`;
    const base = "command: 'touch made.txt', args: null, cwd: '/', env: {}, stdin: '', timeoutMs: 0, killSignal: 'SIGTERM', maxBuffer: 100";
    expect((await ws.run(probe(`{ ${base}, env: { A: 5 } }`))).output).toBe('EINVAL EINVAL: the child process was refused: env entry "A" must be a string\n');
    expect((await ws.run(probe(`{ ${base}, cwd: 'relative' }`))).output).toContain('cwd must be an absolute path');
    expect((await ws.run(probe(`{ ${base}, killSignal: 'SIGNOPE' }`))).output).toContain('killSignal must be one of');
    expect((await ws.run(probe('42'))).output).toContain('the request is not an object');
    expect(await ws.runtime.stat('/made.txt')).toBeNull();
  });
});

describe('child_process against the baseline', () => {
  it("execSync('git rev-parse HEAD') prints the baseline commit", async () => {
    const rt = createEmbeddedRuntime();
    try {
      const files = { 'index.js': "console.log(require('child_process').execSync('git rev-parse HEAD', { encoding: 'utf8' }).trim());\n" };
      await rt.importFiles(Object.entries(files).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) })));
      await rt.setBaseline({ name: 'project-main.zip', files: async () => Object.entries(files).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) })) });
      const head = await rt.exec('git rev-parse HEAD');
      expect(head.output).toMatch(/^[0-9a-f]{40}\n$/);
      expect(await rt.exec('node index.js')).toEqual(head);
    } finally {
      rt.dispose();
    }
  });
});
