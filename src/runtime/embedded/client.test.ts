import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntimeInWorker } from './client';
import { describeRuntimeContract } from '../testing/runtime-contract';
import { createInMemoryWorker } from '../testing/in-memory-worker';
import type { ToWorker } from './protocol';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A runtime whose first worker never answers a command containing STUCK (like a builtin spinning without statement boundaries). */
async function stuckOnFirstWorker(files?: Record<string, string>) {
  const workers: ReturnType<typeof createInMemoryWorker>[] = [];
  const runtime = await createEmbeddedRuntimeInWorker({
    stopGraceMs: 100,
    files,
    createWorker: () => {
      const worker = createInMemoryWorker((m) => workers.length === 1 && m.type === 'exec' && m.command.includes('STUCK'));
      workers.push(worker);
      return worker;
    },
  });
  return { runtime, workers };
}

describeRuntimeContract('embedded (through the worker protocol)', () => createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() }), {
  changesBeforeResult: true,
});

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
    const { runtime, workers } = await stuckOnFirstWorker();
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
    const { runtime, workers } = await stuckOnFirstWorker();
    await runtime.writeFile('a.txt', 'A');
    await runtime.setBaseline!({ name: 'kept.zip', files: async () => [{ path: 'a.txt', data: new TextEncoder().encode('A') }] });
    expect((await runtime.exec('echo STUCK', { timeoutMs: 200 })).output).toMatch(/restarted/);
    expect(workers).toHaveLength(2);
    expect((await runtime.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported kept\.zip\n$/);
    await runtime.dispose();
  });

  it('keeps its rollback point from what changed: nothing is read back before a command when nothing changed', async () => {
    const sent: ToWorker[] = [];
    const runtime = await createEmbeddedRuntimeInWorker({
      files: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/f${i}.txt`, `file ${i}`])),
      createWorker: () => {
        const worker = createInMemoryWorker();
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message, transfer) => {
          sent.push(message);
          post(message, transfer);
        };
        return worker;
      },
    });
    const copies = () => sent.filter((m): m is Extract<ToWorker, { type: 'copy-entries' }> => m.type === 'copy-entries');
    await runtime.exec('cat src/f1.txt');
    await runtime.exec('wc -c src/f2.txt');
    expect(copies()).toEqual([]); // read-only commands cost nothing
    await runtime.writeFile('src/f3.txt', 'changed');
    await runtime.exec('echo made > out.txt');
    await runtime.exec('true');
    expect(copies().map((m) => m.paths)).toEqual([['src/f3.txt'], ['out.txt']]);
    expect(sent.some((m) => m.type === 'call' && m.method === 'exportZip')).toBe(false);
    await runtime.dispose();
  });

  it('after a restart, the files changed by earlier commands and writes are back, those of the stuck command are not', async () => {
    const { runtime } = await stuckOnFirstWorker({ 'base.txt': 'from the start' });
    const restarts: string[][] = [];
    runtime.watch((paths) => paths.includes('') && restarts.push(paths));
    await runtime.exec('mkdir -p made && echo by-command > made/one.txt && rm base.txt');
    await runtime.writeFile('written.txt', 'by a write');
    const result = await runtime.exec('echo STUCK > stuck.txt', { timeoutMs: 100 });
    expect(result.output).toMatch(/restarted: files are back to how they were before this command/);
    expect(text(await runtime.readFile('made/one.txt'))).toBe('by-command\n');
    expect(text(await runtime.readFile('written.txt'))).toBe('by a write');
    expect(await runtime.stat('base.txt')).toBeNull();
    expect(await runtime.stat('stuck.txt')).toBeNull();
    expect(restarts).toEqual([['']]); // whoever tracks the files is told to look at all of them again
    await runtime.dispose();
  });

  it('rejects calls after dispose with a clear message', async () => {
    const runtime = await createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() });
    await runtime.dispose();
    await expect(runtime.readFile('x')).rejects.toThrow(/disposed/);
  });
});
