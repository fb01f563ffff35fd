import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntimeInWorker } from '../client';
import { createInMemoryWorker } from '../../testing/in-memory-worker';
import { describeRuntimeContract } from '../../testing/runtime-contract';

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes));

describe('a fork of the embedded runtime in its worker', () => {
  it("keeps its writes and commands' changes to itself, reports them to its own watchers, and lists them", async () => {
    const live = await createEmbeddedRuntimeInWorker({ files: { 'a.txt': 'a' }, createWorker: () => createInMemoryWorker() });
    const fork = await live.fork!();
    const liveHeard: string[][] = [];
    const forkHeard: string[][] = [];
    live.watch((paths) => liveHeard.push(paths));
    fork.runtime.watch((paths) => forkHeard.push(paths));
    await fork.runtime.writeFile('a.txt', 'fork');
    expect((await fork.runtime.exec('echo x > b.txt && cat a.txt')).output).toBe('fork');
    await fork.runtime.applyChanges!({ removeFiles: [], removeFolders: [], makeFolders: [], writeFiles: [{ path: 'c.txt', data: new TextEncoder().encode('c') }] });
    await live.writeFile('live.txt', 'live');
    expect(text(await live.readFile('a.txt'))).toBe('a');
    expect(await live.stat('b.txt')).toBeNull();
    expect(await fork.runtime.stat('live.txt')).toBeNull();
    expect(forkHeard.flat()).toEqual(expect.arrayContaining(['a.txt', 'b.txt', 'c.txt']));
    expect(liveHeard.flat()).not.toContain('b.txt');
    expect((await fork.changes()).map((c) => ({ path: c.path, base: text(c.base), fork: text(c.fork) }))).toEqual([
      { path: 'a.txt', base: 'a', fork: 'fork' },
      { path: 'b.txt', base: null, fork: 'x\n' },
      { path: 'c.txt', base: null, fork: 'c' },
    ]);
    await fork.dispose();
    await expect(fork.runtime.readFile('a.txt')).rejects.toThrow(/disposed/);
    expect(text(await live.readFile('a.txt'))).toBe('a');
    await live.dispose();
  });

  it('says a fork is gone once the worker was restarted', async () => {
    let workers = 0;
    const live = await createEmbeddedRuntimeInWorker({
      stopGraceMs: 50,
      createWorker: () => {
        const first = ++workers === 1;
        return createInMemoryWorker((m) => first && m.type === 'exec' && m.command.includes('STUCK'));
      },
    });
    const fork = await live.fork!();
    await live.exec('STUCK', { timeoutMs: 10 });
    await expect(fork.runtime.readFile('x')).rejects.toThrow(/fork of the workspace is gone/);
    await live.dispose();
  });
});

describeRuntimeContract(
  'embedded fork (through the worker protocol)',
  async () => (await (await createEmbeddedRuntimeInWorker({ createWorker: () => createInMemoryWorker() })).fork!()).runtime,
  { changesBeforeResult: true, stagedImport: false, gitBaseline: false },
);
