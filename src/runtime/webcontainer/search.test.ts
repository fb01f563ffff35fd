import { afterEach, describe, expect, it } from 'vitest';
import { unpackNames } from '../search/name-list';
import { createWebContainerDouble, type WebContainerDouble } from '../testing/webcontainer-double';
import { createWebContainerRuntime } from './webcontainer';
import type { WcFileSystem } from './webcontainer-like';

let container: WebContainerDouble | undefined;
afterEach(() => container?.teardown());

/** The double's fs, counting the calls in flight at once. */
function countingFs(fs: WcFileSystem): { fs: WcFileSystem; mostAtOnce: () => number } {
  let inFlight = 0;
  let most = 0;
  const counted =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      most = Math.max(most, ++inFlight);
      try {
        return await call(...args);
      } finally {
        inFlight--;
      }
    };
  const wrapped = Object.create(fs) as WcFileSystem;
  wrapped.readFile = counted(fs.readFile.bind(fs));
  wrapped.readdir = counted(fs.readdir.bind(fs) as (path: string) => Promise<string[]>) as WcFileSystem['readdir'];
  return { fs: wrapped, mostAtOnce: () => most };
}

describe('WebContainer runtime search', () => {
  it('walks and reads through the fs API, many calls at once, without starting a process', async () => {
    container = await createWebContainerDouble();
    const counting = countingFs(container.fs);
    (container as { fs: WcFileSystem }).fs = counting.fs;
    const runtime = createWebContainerRuntime(container);
    for (let i = 0; i < 40; i++) await runtime.writeFile(`src/m${i % 4}/f${i}.ts`, i % 10 === 0 ? `export const needle${i} = 1;\n` : 'nothing\n');
    await runtime.writeFile('.gitignore', 'src/m3/\n');

    const found = await runtime.search!({ kind: 'content', path: '.', pattern: { source: 'needle\\d+', flags: 'u' }, limit: 100, context: 0, maxLineChars: 500 });
    expect(found).toMatchObject({ kind: 'content', matches: 4, filesSearched: 31, limitReached: false });
    if (found.kind !== 'content') throw new Error('expected a content result');
    expect(found.files.map((file) => file.path.slice(container!.workdir.length + 1))).toEqual(['src/m0/f0.ts', 'src/m0/f20.ts', 'src/m2/f10.ts', 'src/m2/f30.ts']);

    const names = await runtime.search!({ kind: 'names', path: 'src', glob: 'm1/*' });
    if (names.kind !== 'names') throw new Error('expected a name result');
    expect(unpackNames(names)).toHaveLength(10);
    expect(counting.mostAtOnce()).toBeGreaterThan(8);
    expect(container.spawned).toEqual([]);
  });
});
