import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from './in-process';
import type { SearchRequest } from '../search-types';
import type { Runtime } from '../types';
import { unpackNames } from '../search/name-list';
import { writeStoredZip } from '../zip/stored-zip';

const names = async (runtime: Runtime, glob = '**'): Promise<string[]> => {
  const result = await runtime.search!({ kind: 'names', path: '.', glob });
  if (result.kind !== 'names') throw new Error('expected a name search result');
  return unpackNames(result).map((entry) => entry.path.slice(runtime.workdir.length + 1) + (entry.type === 'dir' ? '/' : ''));
};

describe('embedded runtime search', () => {
  it('sees every kind of change made since the previous search', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'a.ts': 'one' } });
    expect(await names(runtime)).toEqual(['a.ts']);

    await runtime.writeFile('src/b.ts', 'two');
    expect(await names(runtime)).toEqual(['a.ts', 'src/', 'src/b.ts']);

    await runtime.exec('mkdir -p lib && echo x > lib/c.ts && mv a.ts z.ts');
    expect(await names(runtime)).toEqual(['lib/', 'lib/c.ts', 'src/', 'src/b.ts', 'z.ts']);

    await runtime.rm('src', { recursive: true });
    await runtime.rename('z.ts', 'y.ts');
    expect(await names(runtime)).toEqual(['lib/', 'lib/c.ts', 'y.ts']);

    await runtime.writeFile('.gitignore', 'lib/\n');
    expect(await names(runtime)).toEqual(['.gitignore', 'y.ts']);

    await runtime.importZip(writeStoredZip([{ path: 'fresh/only.ts', data: new TextEncoder().encode('x') }]));
    expect(await names(runtime)).toEqual(['fresh/', 'fresh/only.ts']);

    await runtime.importFiles([{ path: 'again.ts', data: new TextEncoder().encode('y') }]);
    expect(await names(runtime)).toEqual(['again.ts']);

    const staged = runtime.beginImport();
    staged.add([{ path: 'staged/s.ts', data: new TextEncoder().encode('z') }]);
    await staged.commit();
    expect(await names(runtime)).toEqual(['staged/', 'staged/s.ts']);
  });

  it('sees a change from a command that failed halfway', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'keep/a.ts': '1', 'keep/b.ts': '2' } });
    expect(await names(runtime, '*.ts')).toEqual(['keep/a.ts', 'keep/b.ts']);
    await runtime.exec('echo 3 > keep/c.ts; false');
    expect(await names(runtime, '*.ts')).toEqual(['keep/a.ts', 'keep/b.ts', 'keep/c.ts']);
  });

  it('reads contents as they are now, and reports a missing path', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'a.txt': 'old text' } });
    const request: SearchRequest = { kind: 'content', path: '.', pattern: { source: 'new', flags: 'u' }, limit: 10, context: 0, maxLineChars: 500 };
    expect((await runtime.search(request)).kind === 'content' && (await runtime.search(request))).toMatchObject({ matches: 0, filesSearched: 1 });
    await runtime.writeFile('a.txt', 'new text');
    expect(await runtime.search(request)).toMatchObject({ matches: 1, files: [{ matched: [0], lines: [{ index: 0, text: 'new text', cut: false }] }] });
    await expect(runtime.search({ ...request, path: 'nowhere' })).rejects.toThrow('ENOENT');
  });
});
