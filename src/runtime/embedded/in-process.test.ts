import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from './in-process';
import { describeRuntimeContract } from '../testing/runtime-contract';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('createEmbeddedRuntime', () => {
  it('starts in /home/project with the given files', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'src/a.txt': 'hello', 'b.bin': new Uint8Array([0, 255]) } });
    expect(runtime.kind).toBe('embedded');
    expect(runtime.workdir).toBe('/home/project');
    expect(text(await runtime.readFile('src/a.txt'))).toBe('hello');
    expect([...(await runtime.readFile('/home/project/b.bin'))]).toEqual([0, 255]);
    expect(await runtime.readdir('.')).toEqual([
      { name: 'b.bin', type: 'file' },
      { name: 'src', type: 'dir' },
    ]);
  });

  it('is ready as soon as it is created, with or without await', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'a/b.txt': 'ready' } });
    expect(text(await runtime.readFile('a/b.txt'))).toBe('ready');
    expect((await runtime.exec('cat a/b.txt')).output).toBe('ready');
  });

  it('honours a custom workdir', async () => {
    const runtime = await createEmbeddedRuntime({ workdir: '/work', files: { 'x.txt': 'x' } });
    expect((await runtime.exec('pwd; cat x.txt')).output).toBe('/work\nx');
  });

  it('names the path when a file is missing', async () => {
    const runtime = await createEmbeddedRuntime();
    await expect(runtime.readFile('nope.txt')).rejects.toThrow(/ENOENT.*nope\.txt/);
    expect(await runtime.stat('nope.txt')).toBeNull();
  });

  it('says a file is not a directory', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'f.txt': '1' } });
    await expect(runtime.readdir('f.txt')).rejects.toThrow(/not a directory/);
    await expect(runtime.writeFile('f.txt/inner', 'x')).rejects.toThrow(/f\.txt is a file/);
  });

  it('runs commands whose writes the file methods see, and vice versa', async () => {
    const runtime = await createEmbeddedRuntime();
    await runtime.writeFile('in.txt', 'from writeFile\n');
    const result = await runtime.exec('cat in.txt; echo made > out.txt');
    expect(result).toEqual({ output: 'from writeFile\n', exitCode: 0 });
    expect(text(await runtime.readFile('out.txt'))).toBe('made\n');
  });

  it('interleaves stdout and stderr in the order they were written', async () => {
    const runtime = await createEmbeddedRuntime();
    const result = await runtime.exec('echo one; echo two >&2; echo three');
    expect(result.output).toBe('one\ntwo\nthree\n');
  });

  it('stops a tight loop at the timeout even though it never yields', async () => {
    const runtime = await createEmbeddedRuntime();
    const started = Date.now();
    const result = await runtime.exec('while true; do :; done', { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/timed out after 0\.3 s/);
  });

  it('stops a tight loop when a cross-thread interrupt flag is raised', async () => {
    let polls = 0;
    const runtime = await createEmbeddedRuntime();
    const result = await runtime.exec('while true; do :; done', { interruptRequested: () => ++polls > 1000 });
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/aborted/);
  });

  describe('an abort from a timer stops a loop that never yields, in-process', () => {
    const loops = {
      'while with a redirect': 'echo before; while true; do echo x >/dev/null; done',
      'until': 'until false; do :; done',
      'for over a long list': 'for i in $(seq 1 5000); do echo $i >/dev/null; done',
      'C-style for': 'for ((i = 0; ; i++)); do :; done',
      'a loop in a function': 'spin() { while :; do :; done; }; spin',
      'a loop in a script run by bash': "printf 'while :; do :; done\\n' > spin.sh; bash spin.sh",
    };
    for (const [name, command] of Object.entries(loops)) {
      it(name, async () => {
        const runtime = createEmbeddedRuntime();
        const controller = new AbortController();
        let abortedAt = Infinity;
        setTimeout(() => {
          abortedAt = Date.now();
          controller.abort();
        }, 150);
        const result = await runtime.exec(command, { signal: controller.signal });
        expect(Date.now() - abortedAt).toBeLessThan(500);
        expect(result.exitCode).toBeNull();
        expect(result.output).toMatch(/aborted/);
        // The runtime stays usable after the stop.
        expect(await runtime.exec('echo still here')).toEqual({ output: 'still here\n', exitCode: 0 });
      });
    }

    it('keeps what the command printed before the abort', async () => {
      const runtime = createEmbeddedRuntime();
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await runtime.exec('echo before; while true; do echo x >/dev/null; done', { signal: controller.signal });
      expect(result.output).toMatch(/^before\n/);
    });
  });

  it('leaves $? as the loop body would see it without the yield point', async () => {
    const runtime = createEmbeddedRuntime();
    const result = await runtime.exec('for i in 1 2; do echo "status $?"; false; done; until true; do :; done; echo end');
    expect(result.output).toBe('status 0\nstatus 1\nend\n');
  });

  it('keeps the directory after a command ending in exit where it was', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'sub/x': '' } });
    await runtime.exec('cd sub');
    await runtime.exec('cd /; exit 3');
    expect((await runtime.exec('pwd')).output).toBe('/home/project/sub\n');
  });

  it('falls back to the workdir, and says so, when the current directory was deleted', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'sub/x': '' } });
    await runtime.exec('cd sub');
    await runtime.rm('sub', { recursive: true });
    const result = await runtime.exec('pwd');
    expect(result.output).toContain('no longer exists');
    expect(result.output).toMatch(/\/home\/project\n$/);
  });

  it('refuses to delete the workspace root', async () => {
    const runtime = await createEmbeddedRuntime();
    await expect(runtime.rm('.', { recursive: true })).rejects.toThrow(/workspace root/);
  });

  it('resolves symlinks in realpath', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'real.txt': 'r' } });
    await runtime.exec('ln -s real.txt alias.txt');
    expect(await runtime.realpath('alias.txt')).toBe('/home/project/real.txt');
    expect(await runtime.realpath('not-yet.txt')).toBe('/home/project/not-yet.txt');
    expect(await runtime.stat('alias.txt')).toEqual({ type: 'file', size: 1 });
    expect(await runtime.readdir('.')).toContainEqual({ name: 'alias.txt', type: 'symlink' });
  });
});

describeRuntimeContract('embedded (in-process)', () => createEmbeddedRuntime(), { changesBeforeResult: true });
