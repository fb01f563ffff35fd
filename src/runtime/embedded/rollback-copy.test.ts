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
});
