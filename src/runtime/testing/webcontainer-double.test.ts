// The double must behave like @webcontainer/api wherever its dist or jsh's issue tracker say how the real one behaves;
// otherwise the adapter's tests give false confidence. These tests pin that down.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WcProcess } from '../webcontainer/webcontainer-like';
import { createWebContainerApiDouble, createWebContainerDouble, type WebContainerDouble } from './webcontainer-double';

const doubles: WebContainerDouble[] = [];
async function makeDouble(): Promise<WebContainerDouble> {
  const double = await createWebContainerDouble();
  doubles.push(double);
  return double;
}
afterAll(() => {
  for (const double of doubles) if (!double.isTornDown) double.teardown();
});

async function readAll(process: WcProcess): Promise<string[]> {
  const chunks: string[] = [];
  const reader = process.output.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

async function readUntil(reader: ReadableStreamDefaultReader<string>, text: string): Promise<string> {
  let screen = '';
  while (!screen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the output ended before ${JSON.stringify(text)}: ${JSON.stringify(screen)}`);
    screen += value;
  }
  return screen;
}

describe('the WebContainer double', () => {
  it('decodes output chunk by chunk like the dist: a character cut by a chunk boundary becomes U+FFFD', async () => {
    const double = await makeDouble();
    const script = "process.stdout.write(Buffer.from([0xc3])); setTimeout(() => process.stdout.write(Buffer.from([0xa9, 0x0a])), 200)";
    const process = await double.spawn('node', ['-e', script]);
    const text = (await readAll(process)).join('');
    expect(text).toBe('\ufffd\ufffd\r\n');
  });

  it('runs processes on a pseudo-terminal: stdout and stderr merged in order, LF as CRLF', async () => {
    const double = await makeDouble();
    const process = await double.spawn('jsh', ['-c', 'echo out; echo err 1>&2; echo out2']);
    expect((await readAll(process)).join('')).toBe('out\r\nerr\r\nout2\r\n');
    expect(await process.exit).toBe(0);
  });

  it("refuses what jsh is reported not to support, with jsh's messages", async () => {
    const double = await makeDouble();
    const run = async (script: string) => {
      const process = await double.spawn('jsh', ['-c', script]);
      return { output: (await readAll(process)).join(''), exitCode: await process.exit };
    };
    expect(await run('printf hi')).toEqual({ output: 'jsh: command not found: printf\r\n', exitCode: 127 });
    expect(await run('sleep 1')).toEqual({ output: 'jsh: command not found: sleep\r\n', exitCode: 127 });
    expect(await run('a=123')).toEqual({ output: "Cannot read properties of undefined (reading 'replace')\r\n", exitCode: 1 });
    expect(await run('export A=1')).toEqual({ output: 'e.Assigns is not iterable\r\n', exitCode: 1 });
    expect(await run('while true; do :; done')).toEqual({ output: 'jsh: a command can only contain words and redirects\r\n', exitCode: 1 });
    expect(await run('echo $(pwd)')).toMatchObject({ exitCode: 1 });
    // What StackBlitz's apps rely on runs:
    expect(await run("mkdir -p a && cd a && echo 'in a' > f.txt; cat f.txt | cat; false || echo ok")).toEqual({ output: 'in a\r\nok\r\n', exitCode: 0 });
    // The cwd marker's wrapper: the command runs, then jsh stops at the variable assignment.
    expect(await run('echo first\n__s=$?\nprintf "%s" "$PWD"\nexit $__s')).toEqual({
      output: "first\r\nCannot read properties of undefined (reading 'replace')\r\n",
      exitCode: 1,
    });
  });

  it('plays jsh --osc: the prompt and interactive sequences, input lost before them, an exit sequence per command, exit ending jsh', async () => {
    const double = await makeDouble();
    const shell = await double.spawn('/bin/jsh', ['--osc'], { terminal: { cols: 100, rows: 30 } });
    const writer = shell.input.getWriter();
    await writer.write('echo typed too early\n');
    const reader = shell.output.getReader();
    const start = await readUntil(reader, '\x1b]654;interactive\x07');
    expect(start).toMatch(/^\x1b\]654;prompt\x07.*~\/project.*❯.*\x1b\]654;interactive\x07$/s);
    await writer.write('false\n');
    const afterFalse = await readUntil(reader, '\x1b]654;prompt\x07');
    expect(afterFalse).toMatch(/^false\r\n\x1b\]654;exit=1:\d+\x07\x1b\]654;prompt\x07/);
    await writer.write('\x03');
    expect(await readUntil(reader, '\x1b]654;prompt\x07')).toMatch(/^\^C\r\n\x1b\]654;prompt\x07/);
    await writer.write('exit 3\n');
    await readUntil(reader, 'exit 3\r\n');
    expect(await shell.exit).toBe(3);
    expect((await reader.read()).done).toBe(true);
    expect(start + afterFalse).not.toContain('typed too early');
  });

  it('drops writes to an exited process with a warning, and ignores kill() after exit', async () => {
    const double = await makeDouble();
    const process = await double.spawn('jsh', ['-c', 'true']);
    await readAll(process);
    expect(await process.exit).toBe(0);
    await process.input.getWriter().write('late');
    process.kill();
    expect(double.warnings).toEqual(['This process already exited']);
  });

  it('takes spawn cwd relative to the workdir, an absolute one too, and rejects a missing one', async () => {
    const double = await makeDouble();
    await double.fs.mkdir('sub', { recursive: true });
    const relative = await double.spawn('jsh', ['-c', 'pwd'], { cwd: 'sub' });
    expect((await readAll(relative)).join('')).toBe(`${double.workdir}/sub\r\n`);
    await expect(double.spawn('jsh', ['-c', 'pwd'], { cwd: `${double.workdir}/sub` })).rejects.toThrow(/ENOENT/);
  });

  it('registers fs.watch asynchronously: a change made before the registration settles is not reported', async () => {
    const double = await makeDouble();
    const seen: string[] = [];
    const watcher = double.fs.watch('.', { recursive: true }, (_event, name) => seen.push(String(name)));
    writeFileSync(join(double.workdir, 'early.txt'), 'x');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(join(double.workdir, 'late.txt'), 'x');
    for (let i = 0; i < 100 && !seen.includes('late.txt'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    watcher.close();
    expect(seen).toContain('late.txt');
    expect(seen).not.toContain('early.txt');
  });

  it('transfers a binary mount (the caller loses the buffer) and throws on a second teardown', async () => {
    const double = await createWebContainerDouble();
    const snapshot = new Uint8Array([1, 2, 3]);
    await expect(double.mount(snapshot)).rejects.toThrow(/binary snapshots/);
    expect(snapshot.byteLength).toBe(0);
    double.teardown();
    expect(() => double.teardown()).toThrow('WebContainer already torn down');
    await expect(double.spawn('jsh', ['-c', 'true'])).rejects.toThrow(/torn down/);
  });
});

describe('the WebContainer API double (boot)', () => {
  it('never settles a boot when stackblitz.com is unreachable, and a second boot waits behind the first', async () => {
    const api = createWebContainerApiDouble({ network: 'unreachable' });
    let settled = 0;
    void api.WebContainer.boot({ coep: 'require-corp' }).finally(() => settled++);
    void api.WebContainer.boot({ coep: 'require-corp' }).finally(() => settled++);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(0);
    expect(api.bootCalls).toHaveLength(2);
  });

  it('boots one instance: a second boot is refused until the first is torn down', async () => {
    const api = createWebContainerApiDouble();
    const first = await api.WebContainer.boot({ workdirName: 'project' });
    await expect(api.WebContainer.boot({})).rejects.toThrow('Only a single WebContainer instance can be booted');
    first.teardown();
    const second = await api.WebContainer.boot({});
    expect(second).not.toBe(first);
    second.teardown();
  });
});
