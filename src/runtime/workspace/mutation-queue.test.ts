import { describe, expect, it } from 'vitest';
import { createMutationQueue } from './mutation-queue';
import { normalizePath } from '../paths';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('mutation queue', () => {
  it('lets two concurrent read-modify-write updates of one file both land', async () => {
    const queue = createMutationQueue();
    const files = new Map<string, string>([['/p/a.txt', 'start']]);
    const append = (path: string, suffix: string) =>
      queue.run(path, async () => {
        const before = files.get('/p/a.txt') ?? '';
        await tick(); // another writer would interleave here without the queue
        files.set('/p/a.txt', before + suffix);
      });
    await Promise.all([append('/p/a.txt', '+one'), append('/p//./sub/../a.txt', '+two')]);
    expect(files.get('/p/a.txt')).toBe('start+one+two');
  });

  it('runs different keys in parallel and the same key in call order', async () => {
    const queue = createMutationQueue();
    const log: string[] = [];
    const gate = deferred();
    const first = queue.run('/a', async () => {
      log.push('a1 start');
      await gate.promise;
      log.push('a1 end');
    });
    const second = queue.run('/a', async () => void log.push('a2'));
    const other = queue.run('/b', async () => void log.push('b'));
    await other;
    expect(log).toEqual(['a1 start', 'b']);
    gate.resolve();
    await Promise.all([first, second]);
    expect(log).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('keeps the chain going after a failing (or synchronously throwing) function', async () => {
    const queue = createMutationQueue();
    const failing = queue.run('/a', async () => {
      throw new Error('disk full');
    });
    const throwingSync = queue.run('/a', () => {
      throw new Error('sync');
    });
    const later = queue.run('/a', async () => 'written');
    await expect(failing).rejects.toThrow('disk full');
    await expect(throwingSync).rejects.toThrow('sync');
    await expect(later).resolves.toBe('written');
  });

  it('normalizes keys', () => {
    expect(normalizePath('/home//project/./src/../a.ts')).toBe('/home/project/a.ts');
    expect(normalizePath('/home/project/dir/')).toBe('/home/project/dir');
    expect(normalizePath('/../a')).toBe('/a');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('./a/b/..')).toBe('a');
    expect(normalizePath('../x')).toBe('../x');
  });
});
