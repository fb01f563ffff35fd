import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRuntimeContract, JSH_CONTRACT_SHELL } from '../testing/runtime-contract';
import { createWebContainerDouble, type WebContainerDouble, type WebContainerDoubleOptions } from '../testing/webcontainer-double';
import { probeExecStrategies } from './exec-probe';
import { holdInputUntilInteractive } from './jsh/interactive-shell';
import { SessionShell } from './jsh/session-shell';
import { AGENT_COMMAND_ENV, createWebContainerRuntime, type WebContainerLike, type WebContainerRuntimeOptions } from './webcontainer';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const doubles: WebContainerDouble[] = [];
async function makeDouble(options: WebContainerDoubleOptions = {}): Promise<WebContainerDouble> {
  const double = await createWebContainerDouble(options);
  doubles.push(double);
  return double;
}
afterAll(() => {
  for (const double of doubles) double.teardown();
});

/** Reads a process's output until `predicate` holds for everything read so far. */
async function readUntil(output: ReadableStreamDefaultReader<string>, predicate: (screen: string) => boolean): Promise<string> {
  let screen = '';
  while (!predicate(screen)) {
    const { done, value } = await output.read();
    if (done) break;
    screen += value;
  }
  return screen;
}

/** `double`, except that its jsh --osc sessions ignore Ctrl-C once a line containing `word` was typed. */
function ignoringCtrlCAfter(word: string, double: WebContainerDouble): WebContainerLike {
  const spawn: WebContainerLike['spawn'] = async (command, args, options) => {
    const process = await double.spawn(command, args, options);
    if (!args.includes('--osc')) return process;
    const writer = process.input.getWriter();
    let stubborn = false;
    const input = new WritableStream<string>({
      write: (chunk) => {
        if (stubborn) chunk = chunk.replace(/\x03/g, '');
        if (chunk.includes(word)) stubborn = true;
        void writer.write(chunk);
      },
    });
    return { exit: process.exit, output: process.output, input, kill: () => process.kill(), resize: (size) => process.resize(size) };
  };
  return Object.assign(Object.create(double) as WebContainerDouble, { spawn });
}

/** A runtime as the app boots it: the probe has run. */
async function booted(options: WebContainerDoubleOptions = {}, runtimeOptions: WebContainerRuntimeOptions = {}) {
  const runtime = createWebContainerRuntime(await makeDouble(options), runtimeOptions);
  await runtime.execStrategy();
  return runtime;
}

describeRuntimeContract('webcontainer (honest double: jsh --osc session)', () => booted(), {
  stagedImport: false, // it imports through its own file system API; the app falls back to importFiles
  gitBaseline: false, // jsh has no git
  shell: JSH_CONTRACT_SHELL,
  scanAndApply: false, // the Workspace scans and applies changes through its ordinary methods
});

describeRuntimeContract(
  'webcontainer (double of a jsh with variables and printf but no --osc: the wrapper)',
  () => booted({ jshGrammar: 'posix', jshOsc: false }, { exec: 'wrapper' }),
  { stagedImport: false, gitBaseline: false, shell: JSH_CONTRACT_SHELL, scanAndApply: false },
);

describe('the boot probe', () => {
  it('falls back to the cd-carrying wrapper on a jsh that ignores --osc but has variables and printf', async () => {
    const report = await probeExecStrategies(await makeDouble({ jshGrammar: 'posix', jshOsc: false }), AGENT_COMMAND_ENV, 2000);
    expect(report.strategy).toBe('wrapper');
    expect(report.osc.detail).toMatch(/interactive/);
    expect(report.wrapper).toMatchObject({ works: true, detail: 'passed' });
  });

  it('falls back to plain jsh -c when neither works, and commands still run with their exit codes', async () => {
    const double = await makeDouble({ jshOsc: false });
    const report = await probeExecStrategies(double, AGENT_COMMAND_ENV, 2000);
    expect(report.strategy).toBe('plain');
    const runtime = createWebContainerRuntime(double, { exec: 'plain' });
    expect(await runtime.exec('echo hi; exit 3')).toEqual({ output: 'hi\n', exitCode: 3 });
    expect(await runtime.exec('printf x')).toEqual({ output: 'jsh: command not found: printf\n', exitCode: 127 });
  });
});

describe('the session shell', () => {
  it('stops starting jsh --osc sessions after two failed starts, so commands do not each wait for one', async () => {
    const double = await makeDouble({ jshOsc: false });
    const shell = new SessionShell(double, double.workdir, AGENT_COMMAND_ENV, { readyTimeoutMs: 200 });
    const run = () => shell.run('true', { cwd: double.workdir, onRaw: () => undefined, signal: new AbortController().signal, onWaiting: () => undefined });
    await expect(run()).rejects.toThrow(/interactive/);
    await expect(run()).rejects.toThrow(/interactive/);
    await expect(run()).rejects.toThrow(/stopped starting/);
    expect(double.spawned.filter((spawn) => spawn.command === '/bin/jsh')).toHaveLength(2);
    shell.dispose();
  });
});

describe('WebContainer adapter specifics', () => {
  it('probes at boot, and on a jsh that refuses the wrapper picks the jsh --osc session, saying why', async () => {
    const runtime = createWebContainerRuntime(await makeDouble());
    const report = await runtime.execStrategy();
    expect(report.strategy).toBe('osc-session');
    expect(report.osc).toMatchObject({ works: true, detail: 'passed' });
    expect(report.wrapper.works).toBe(false);
    expect(report.wrapper.detail).toContain("Cannot read properties of undefined (reading 'replace')");
  });

  it('types single-line commands into one long-lived jsh --osc, with the agent environment', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double, { exec: 'osc-session' });
    await runtime.exec('mkdir -p sub && cd sub');
    expect((await runtime.exec('pwd')).output).toBe(`${double.workdir}/sub\n`);
    expect((await runtime.exec('echo "$npm_config_yes $CI"')).output).toBe('true 1\n');
    const shells = double.spawned.filter((s) => s.command === '/bin/jsh');
    expect(shells).toHaveLength(1);
    expect(shells[0].args).toEqual(['--osc']);
    expect(shells[0].options?.env).toMatchObject({ npm_config_yes: 'true', CI: '1' });
    expect(double.spawned.some((s) => s.command === 'jsh')).toBe(false);
  });

  it('runs a command with its own cwd or env in a jsh -c of its own (cwd relative to the workdir), leaving the session where it was', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double, { exec: 'osc-session' });
    await runtime.mkdir('a/b');
    await runtime.exec('cd a');
    expect((await runtime.exec('cd b && pwd', { cwd: 'a' })).output).toBe(`${double.workdir}/a/b\n`);
    expect(double.spawned.at(-1)).toMatchObject({ command: 'jsh', args: ['-c', 'cd b && pwd'], options: { cwd: 'a' } });
    expect((await runtime.exec('echo $WHO', { env: { WHO: 'me' } })).output).toBe('me\n');
    expect(double.spawned.at(-1)?.options).toMatchObject({ cwd: 'a', env: { WHO: 'me', npm_config_yes: 'true', CI: '1' } });
    expect((await runtime.exec('pwd')).output).toBe(`${double.workdir}/a\n`);
  });

  it('with the wrapper strategy runs each command through jsh -c in the session directory, workdir-relative', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double, { exec: 'wrapper' });
    await runtime.mkdir('sub');
    await runtime.exec('true', { cwd: 'sub' });
    const last = double.spawned.at(-1);
    expect(last?.command).toBe('jsh');
    expect(last?.args[0]).toBe('-c');
    expect(last?.options?.cwd).toBe('sub');
  });

  it('runs a multi-line script in a jsh -c of its own, in the session folder', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double, { exec: 'osc-session' });
    await runtime.mkdir('sub');
    await runtime.exec('cd sub');
    expect(await runtime.exec('echo one\necho two && pwd')).toEqual({ output: `one\ntwo\n${double.workdir}/sub\n`, exitCode: 0 });
    expect(double.spawned.at(-1)).toMatchObject({ command: 'jsh', options: { cwd: 'sub' } });
  });

  it('kills the session when Ctrl-C does not stop a command, and the next command gets a fresh one in the same folder', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(ignoringCtrlCAfter('stubborn', double), { exec: 'osc-session' });
    await runtime.exec('mkdir -p sub && cd sub');
    const started = Date.now();
    const result = await runtime.exec(`echo stubborn; ${JSH_CONTRACT_SHELL.idleLoop}`, { timeoutMs: 500 });
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/^stubborn\n[^]*timed out/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await runtime.exec('pwd')).toEqual({ output: `${double.workdir}/sub\n`, exitCode: 0 });
    expect(double.spawned.filter((spawn) => spawn.command === '/bin/jsh')).toHaveLength(2);
  });

  it('makes a command wait for the one before it, telling the person (not the model)', async () => {
    const double = await makeDouble();
    let noticed!: () => void;
    const waitingShown = new Promise<void>((resolve) => (noticed = resolve));
    const runtime = createWebContainerRuntime(double, {
      exec: 'osc-session',
      onRawOutput: (chunk, command) => command === 'echo second' && chunk.includes('waiting for the shell') && noticed(),
    });
    const controller = new AbortController();
    let running!: () => void;
    const isRunning = new Promise<void>((resolve) => (running = resolve));
    const first = runtime.exec(`echo first; ${JSH_CONTRACT_SHELL.idleLoop}`, {
      signal: controller.signal,
      onOutput: (chunk) => chunk.includes('first') && running(),
    });
    await isRunning;
    const secondOutput: string[] = [];
    const second = runtime.exec('echo second', { onOutput: (chunk) => secondOutput.push(chunk) });
    await waitingShown;
    controller.abort();
    expect((await first).exitCode).toBeNull();
    expect(await second).toEqual({ output: 'second\n', exitCode: 0 });
    expect(secondOutput.join('')).toBe('second\n');
  });

  it('strips escape sequences and CRLF for the model but hands raw output to the terminal hooks', async () => {
    const double = await makeDouble();
    const agentView: string[] = [];
    const runtime = createWebContainerRuntime(double, { onRawOutput: (chunk, command) => agentView.push(`${command}|${chunk}`) });
    const raw: string[] = [];
    const stripped: string[] = [];
    const command = JSH_CONTRACT_SHELL.print('\x1b[1;32mok\x1b[0m\n');
    const result = await runtime.exec(command, {
      onRawOutput: (chunk) => raw.push(chunk),
      onOutput: (chunk) => stripped.push(chunk),
    });
    expect(result.output).toBe('ok\n');
    expect(stripped.join('')).toBe('ok\n');
    expect(raw.join('')).toContain('\x1b[1;32mok\x1b[0m\r\n');
    expect(raw.join('')).not.toContain('__CONCH_CWD_');
    expect(raw.join('')).not.toContain('\x1b]654;');
    expect(agentView.join('')).toContain(`${command}|`);
  });

  it('keeps a bounded tail of a 100 MB flood while onOutput sees every byte', async () => {
    const runtime = createWebContainerRuntime(await makeDouble());
    let seen = 0;
    let peakHeap = 0;
    let nextSample = 0;
    collectGarbage();
    const baseHeap = process.memoryUsage().heapUsed;
    const result = await runtime.exec('yes 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789 | head -c 104857600', {
      timeoutMs: 60_000,
      onOutput: (chunk) => {
        seen += chunk.length;
        if (seen >= nextSample) {
          // What stays reachable while the flood runs, not garbage waiting for the collector.
          nextSample += 10 * 1024 * 1024;
          collectGarbage();
          peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
        }
      },
    });
    expect(result.exitCode).toBe(0);
    expect(seen).toBeGreaterThanOrEqual(104_857_600);
    expect(result.output.length).toBeLessThan(1_100_000);
    expect(result.output).toMatch(/^\[output cut: the first \d+ characters are not kept here/);
    expect(peakHeap - baseHeap).toBeLessThan(32 * 1024 * 1024);
  }, 120_000);

  it('rejects paths that escape the workspace', async () => {
    const runtime = createWebContainerRuntime(await makeDouble());
    await expect(runtime.readFile('../../etc/passwd')).rejects.toThrow(/outside the workspace/);
    await expect(runtime.writeFile('/etc/evil', 'x')).rejects.toThrow(/outside the workspace/);
    await expect(runtime.exec('pwd', { cwd: '..' })).rejects.toThrow(/outside the workspace/);
  });

  it('keeps the session directory when a command exits early', async () => {
    const runtime = createWebContainerRuntime(await makeDouble());
    await runtime.exec('mkdir -p sub && cd sub');
    expect((await runtime.exec('cd /; exit 4')).exitCode).toBe(4);
    expect((await runtime.exec('pwd')).output).toBe(`${runtime.workdir}/sub\n`);
  });

  it('does not hang on npx asking before it installs: the pty is a TTY, and the agent environment says yes', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    // Without the environment npx would ask, because it talks to a terminal:
    expect((await runtime.exec(`node -e 'console.log(Boolean(process.stdin.isTTY && process.stdout.isTTY))'`)).output).toBe('true\n');
    await runtime.writeFile('tool/package.json', JSON.stringify({ name: 'conch-tool', version: '1.0.0', bin: { 'conch-tool': 'index.js' } }));
    await runtime.writeFile('tool/index.js', '#!/usr/bin/env node\nconsole.log("tool ran");\n');
    await runtime.exec('chmod +x tool/index.js');
    const result = await runtime.exec('npx --package=./tool conch-tool', { timeoutMs: 60_000 });
    expect(result.output).toContain('tool ran');
    expect(result.exitCode).toBe(0);
  }, 90_000);

  it('leaves node_modules out of an export even when the container ignores the excludes, passing both glob forms and the bare name', async () => {
    const double = await makeDouble({ exportIgnoresExcludes: true });
    const asked: string[][] = [];
    const exportZip = double.export.bind(double);
    double.export = (path, options) => {
      asked.push(options.excludes ?? []);
      return exportZip(path, options);
    };
    const runtime = createWebContainerRuntime(double);
    await runtime.writeFile('src/a.ts', 'a');
    await runtime.writeFile('node_modules/dep/index.js', 'dep');
    await runtime.writeFile('packages/p/node_modules/x.js', 'x');
    const names = Object.keys(unzipSync(await runtime.exportZip()));
    expect(names).toContain('src/a.ts');
    expect(names.filter((name) => name.includes('node_modules'))).toEqual([]);
    expect(asked[0]).toEqual(expect.arrayContaining(['node_modules', 'node_modules/**', '**/node_modules', '**/node_modules/**']));
  });

  it('drops changes inside node_modules at the source, reporting only the folder', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    const seen = new Set<string>();
    const stop = runtime.watch((paths) => paths.forEach((path) => seen.add(path)));
    await runtime.exec('true'); // the watch registration settles meanwhile
    await mkdir(join(double.workdir, 'node_modules/pkg/lib'), { recursive: true });
    for (let i = 0; i < 50; i++) await writeFile(join(double.workdir, `node_modules/pkg/lib/f${i}.js`), 'x');
    await runtime.exec('echo done > after.txt');
    for (let i = 0; i < 100 && !seen.has('after.txt'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect(seen.has('after.txt')).toBe(true);
    expect(seen.has('node_modules')).toBe(true);
    expect([...seen].filter((path) => path.startsWith('node_modules/'))).toEqual([]);
  });

  it('opens an interactive jsh --osc in the same container, holding keystrokes until it says it is interactive', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    await runtime.writeFile('hello.txt', 'from the agent');
    const shell = await runtime.openShell({ cols: 80, rows: 24 });
    // Typed at once: the double, like (it is guessed) jsh, loses what comes before the interactive sequence.
    const writer = shell.input.getWriter();
    const typed = writer.write('cat hello.txt; exit\n');
    const screen = await readUntil(shell.output.getReader(), () => false);
    await typed;
    expect(await shell.interactive).toBe(true);
    expect(screen.indexOf('\x1b]654;interactive\x07')).toBeLessThan(screen.indexOf('cat hello.txt'));
    expect(screen).toContain('from the agent');
    expect(await shell.exit).toBe(0);
    expect(double.spawned.at(-1)).toMatchObject({ command: '/bin/jsh', args: ['--osc'], options: { terminal: { cols: 80, rows: 24 } } });
  });

  it('gives the keystrokes to a jsh that never says it is interactive after a deadline', async () => {
    const double = await makeDouble({ jshOsc: false });
    const shell = holdInputUntilInteractive(await double.spawn('/bin/jsh', ['--osc'], { terminal: { cols: 80, rows: 24 } }), 300);
    const reader = shell.output.getReader();
    await readUntil(reader, (screen) => screen.includes('❯'));
    void shell.input.getWriter().write('echo late but there\n');
    expect(await shell.interactive).toBe(false);
    expect(await readUntil(reader, (screen) => screen.includes('late but there\r\n'))).toContain('late but there\r\n');
    shell.kill();
  });

  it('exposes the container events for the preview', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    const ready: [number, string][] = [];
    runtime.container.on('server-ready', (port, url) => ready.push([port, url]));
    double.emit('server-ready', 5173, 'https://preview.local');
    expect(ready).toEqual([[5173, 'https://preview.local']]);
  });
});
