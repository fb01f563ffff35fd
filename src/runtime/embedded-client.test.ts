import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntimeInWorker } from './embedded-client';
import { describeRuntimeContract } from './testing/runtime-contract';
import { createInMemoryWorker } from './testing/in-memory-worker';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describeRuntimeContract('embedded (through the worker protocol)', () =>
  createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() }),
);

describe('createEmbeddedRuntimeInWorker', () => {
  it('starts with the given files and workdir', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({
      workdir: '/srv/app',
      files: { 'a.txt': 'A' },
      createWorker: () => createInMemoryWorker(),
    });
    expect(runtime.workdir).toBe('/srv/app');
    expect(text(await runtime.readFile('a.txt'))).toBe('A');
    await runtime.dispose();
  });

  it('streams output chunks to onOutput', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() });
    const chunks: string[] = [];
    const result = await runtime.exec('echo streamed', { onOutput: (chunk) => chunks.push(chunk) });
    expect(chunks.join('')).toBe('streamed\n');
    expect(result).toEqual({ output: 'streamed\n', exitCode: 0 });
    await runtime.dispose();
  });

  it('replaces a worker that ignores a stop request and restores the files from before the command', async () => {
    const workers: ReturnType<typeof createInMemoryWorker>[] = [];
    const runtime = await createEmbeddedRuntimeInWorker({
      stopGraceMs: 100,
      createWorker: () => {
        // The first worker never answers the stuck command (like a builtin spinning without statement boundaries).
        const worker = createInMemoryWorker((m) => workers.length === 1 && m.type === 'exec' && m.command.includes('STUCK'));
        workers.push(worker);
        return worker;
      },
    });
    await runtime.writeFile('kept.txt', 'before');
    const started = Date.now();
    const result = await runtime.exec('echo STUCK', { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.exitCode).toBeNull();
    expect(result.output).toMatch(/timed out/);
    expect(result.output).toMatch(/restarted/);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(text(await runtime.readFile('kept.txt'))).toBe('before');
    expect((await runtime.exec('echo alive')).output).toBe('alive\n');
    await runtime.dispose();
  });

  it('reports a baseline the page cannot read through git, changing nothing', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({ files: { 'a.txt': 'A' }, createWorker: () => createInMemoryWorker() });
    await runtime.setBaseline!({
      name: 'gone.zip',
      files: async () => {
        throw new Error('the stored baseline is gone');
      },
    });
    const result = await runtime.exec('git status');
    expect(result.exitCode).toBe(128);
    expect(result.output).toContain('(the stored baseline is gone)');
    expect(await runtime.stat('.git')).toBeNull();
    await runtime.dispose();
  });

  it('tells a worker started after a stuck command the baseline again', async () => {
    const workers: ReturnType<typeof createInMemoryWorker>[] = [];
    const runtime = await createEmbeddedRuntimeInWorker({
      stopGraceMs: 100,
      createWorker: () => {
        const worker = createInMemoryWorker((m) => workers.length === 1 && m.type === 'exec' && m.command.includes('STUCK'));
        workers.push(worker);
        return worker;
      },
    });
    await runtime.writeFile('a.txt', 'A');
    await runtime.setBaseline!({ name: 'kept.zip', files: async () => [{ path: 'a.txt', data: new TextEncoder().encode('A') }] });
    expect((await runtime.exec('echo STUCK', { timeoutMs: 200 })).output).toMatch(/restarted/);
    expect(workers).toHaveLength(2);
    expect((await runtime.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported kept\.zip\n$/);
    await runtime.dispose();
  });

  it('snapshots the workspace before a command only when something changed since the last snapshot', async () => {
    let snapshots = 0;
    const runtime = await createEmbeddedRuntimeInWorker({
      createWorker: () =>
        createInMemoryWorker((message) => {
          if (message.type === 'call' && message.method === 'exportZip') snapshots++;
          return false;
        }),
    });
    const written = new Promise<void>((resolve) => runtime.watch((paths) => paths.includes('a.txt') && resolve()));
    await runtime.writeFile('a.txt', 'A');
    await written; // the write's own change report, which comes in its own time
    await runtime.exec('cat a.txt');
    expect(snapshots).toBe(1);
    await runtime.exec('grep -r A .');
    await runtime.exec('echo B > b.txt');
    expect(snapshots).toBe(1); // reading changed nothing; the write comes after the snapshot it needs
    await runtime.exec('ls');
    expect(snapshots).toBe(2);
    await runtime.dispose();
  });

  it('rejects calls after dispose with a clear message', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() });
    await runtime.dispose();
    await expect(runtime.readFile('x')).rejects.toThrow(/disposed/);
  });
});
