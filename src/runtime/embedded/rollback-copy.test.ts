import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from './in-process';
import { RollbackCopy } from './rollback-copy';
import type { WorkspaceChanges } from '../types';

const enc = (s: string) => new TextEncoder().encode(s);

describe('RollbackCopy', () => {
  it('takes changes the page made exactly as the runtime makes them: a folder goes only once nothing is left in it', async () => {
    const files = ['a/b/c.txt', 'a/keep/node_modules/x.js', 'd/e/f.txt', 'top.txt'].map((path) => ({ path, data: enc(path) }));
    const copy = new RollbackCopy();
    copy.replace(files);
    const runtime = createEmbeddedRuntime();
    await runtime.importFiles(files);
    const changes: WorkspaceChanges = {
      removeFiles: ['a/b/c.txt', 'd/e/f.txt'],
      removeFolders: ['a/b', 'a', 'd/e', 'd'],
      makeFolders: ['n/m'],
      writeFiles: [{ path: 'top.txt', data: enc('new') }],
    };
    copy.applied(changes);
    await runtime.applyChanges(changes);
    // The copy refills an empty runtime into what the real one holds.
    const refilled = createEmbeddedRuntime();
    await refilled.applyChanges(copy.refill());
    const listing = async (rt: typeof runtime) => (await rt.scan([''])).map((e) => `${e.kind} ${e.path}${e.kind === 'file' ? ` ${e.id}` : ''}`);
    expect(await listing(refilled)).toEqual(await listing(runtime));
    expect((await listing(runtime)).filter((l) => l.startsWith('dir'))).toEqual(['dir ', 'dir a', 'dir a/keep', 'dir a/keep/node_modules', 'dir n', 'dir n/m']);
  });

  it('reads back a command that wrote thousands of files as the few folders above them, and folds them in whole', async () => {
    const runtime = createEmbeddedRuntime();
    await runtime.importFiles([{ path: 'src/app.js', data: enc('app') }]);
    const copy = new RollbackCopy();
    copy.replace([{ path: 'src/app.js', data: enc('app') }]);
    await runtime.exec('mkdir -p .git/objects && for d in a b c; do mkdir -p .git/objects/$d; for f in 1 2 3; do echo $d$f > .git/objects/$d/$f; done; done');
    const written = ['.git', '.git/objects', ...['a', 'b', 'c'].flatMap((d) => [`.git/objects/${d}`, ...[1, 2, 3].map((f) => `.git/objects/${d}/${f}`)])];
    copy.markChanged([...written].reverse());
    copy.markChanged(['src/app.js']);
    const roots = copy.takeChanged();
    expect(roots.sort()).toEqual(['.git', 'src/app.js']);
    copy.update(roots, await runtime.copyEntries(roots));
    const refilled = createEmbeddedRuntime();
    await refilled.applyChanges(copy.refill());
    expect(new TextDecoder().decode(await refilled.readFile('.git/objects/b/3'))).toBe('b3\n');
    expect((await refilled.scan([''])).map((e) => e.path)).toEqual((await runtime.scan([''])).map((e) => e.path));
  });
});
