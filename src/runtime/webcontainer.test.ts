import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { describeRuntimeContract } from './testing/runtime-contract';
import { createWebContainerDouble, type WebContainerDouble } from './testing/webcontainer-double';
import { createWebContainerRuntime } from './webcontainer';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const doubles: WebContainerDouble[] = [];
async function makeDouble(): Promise<WebContainerDouble> {
  const double = await createWebContainerDouble();
  doubles.push(double);
  return double;
}
afterAll(() => {
  for (const double of doubles) double.teardown();
});

describeRuntimeContract('webcontainer (Node double)', async () => createWebContainerRuntime(await makeDouble()), {
  stagedImport: false, // it imports through its own file system API; the app falls back to importFiles
  scanAndApply: false, // the Workspace scans and applies changes through its ordinary methods
});

describe('WebContainer adapter specifics', () => {
  it('runs commands through jsh -c in the session directory', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    await runtime.exec('mkdir -p sub && cd sub');
    await runtime.exec('true');
    const last = double.spawned.at(-1);
    expect(last?.command).toBe('jsh');
    expect(last?.args[0]).toBe('-c');
    expect(last?.options?.cwd).toBe(`${double.workdir}/sub`);
  });

  it('strips escape sequences and CRLF for the model but hands raw output to the terminal hooks', async () => {
    const double = await makeDouble();
    const agentView: string[] = [];
    const runtime = createWebContainerRuntime(double, { onRawOutput: (chunk, command) => agentView.push(`${command}|${chunk}`) });
    const raw: string[] = [];
    const stripped: string[] = [];
    const result = await runtime.exec("printf '\\033[1;32mok\\033[0m\\n'", {
      onRawOutput: (chunk) => raw.push(chunk),
      onOutput: (chunk) => stripped.push(chunk),
    });
    expect(result.output).toBe('ok\n');
    expect(stripped.join('')).toBe('ok\n');
    expect(raw.join('')).toContain('\x1b[1;32mok\x1b[0m\r\n');
    expect(raw.join('')).not.toContain('__CONCH_CWD_');
    expect(agentView.join('')).toContain("printf '\\033[1;32mok");
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

  it('opens an interactive shell in the same container', async () => {
    const double = await makeDouble();
    const runtime = createWebContainerRuntime(double);
    await runtime.writeFile('hello.txt', 'from the agent');
    const shell = await runtime.openShell({ cols: 80, rows: 24 });
    const writer = shell.input.getWriter();
    await writer.write('cat hello.txt; exit\n');
    let screen = '';
    const reader = shell.output.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      screen += value;
    }
    expect(screen).toContain('from the agent');
    expect(await shell.exit).toBe(0);
    expect(double.spawned.at(-1)?.options?.terminal).toEqual({ cols: 80, rows: 24 });
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
