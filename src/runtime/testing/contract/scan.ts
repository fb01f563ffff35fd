// The contract's cases for the optional scan and applyChanges (runtime-contract.ts): hashing the files where they
// are, and writing a set of changes straight into the workspace.

import { describe, expect, it } from 'vitest';
import { allBytes, text } from './bytes';
import type { Runtime } from '../../types';

/** Registers the scan and applyChanges cases, for runtimes that offer them. */
export function describeScanAndApplyContract(fresh: () => Promise<Runtime>): void {
  describe('scan (optional)', () => {
    it('gives each file its git blob id and size, folders whole, excluded names and missing paths as such', async () => {
      const rt = await fresh();
      await rt.writeFile('src/a.txt', 'hello\n');
      await rt.writeFile('src/deep/b.bin', allBytes());
      await rt.writeFile('node_modules/dep/index.js', 'x');
      await rt.writeFile('src/node_modules/dep/index.js', 'x');
      await rt.mkdir('empty');
      const all = await rt.scan!([''], { excludeNames: ['node_modules'] });
      const byPath = new Map(all.map((e) => [e.path, e]));
      expect([...byPath.keys()].sort()).toEqual(['', 'empty', 'src', 'src/a.txt', 'src/deep', 'src/deep/b.bin']);
      // `printf 'hello\n' | git hash-object --stdin`
      expect(byPath.get('src/a.txt')).toEqual({ path: 'src/a.txt', kind: 'file', size: 6, id: 'ce013625030ba8dba906f756967f9e9ca394464a' });
      expect(byPath.get('src/deep/b.bin')).toMatchObject({ kind: 'file', size: 256 });
      const some = await rt.scan!(['src/a.txt', 'gone.txt', 'node_modules/dep'], { withData: true });
      expect(some.map((e) => [e.path, e.kind])).toEqual([['src/a.txt', 'file'], ['gone.txt', 'missing'], ['node_modules/dep', 'dir'], ['node_modules/dep/index.js', 'file']]);
      const first = some[0];
      expect(first.kind === 'file' && text(first.data!)).toBe('hello\n');
    });
  });

  describe('applyChanges (optional)', () => {
    it('removes, creates and writes exactly what it is told, keeping everything else', async () => {
      const rt = await fresh();
      await rt.writeFile('keep/node_modules/dep/index.js', 'kept');
      await rt.writeFile('keep/old.txt', 'old');
      await rt.writeFile('gone/only.txt', 'x');
      await rt.writeFile('file-becomes-folder', 'x');
      await rt.applyChanges!({
        removeFiles: ['keep/old.txt', 'gone/only.txt', 'file-becomes-folder', 'never-was.txt'],
        removeFolders: ['gone', 'keep'],
        makeFolders: ['file-becomes-folder', 'new/empty'],
        writeFiles: [{ path: 'keep/new.txt', data: new TextEncoder().encode('new') }, { path: 'deep/er/file.bin', data: allBytes() }],
      });
      expect(text(await rt.readFile('keep/node_modules/dep/index.js'))).toBe('kept');
      expect(text(await rt.readFile('keep/new.txt'))).toBe('new');
      expect(await rt.readFile('deep/er/file.bin')).toEqual(allBytes());
      expect(await rt.stat('keep/old.txt')).toBeNull();
      expect(await rt.stat('gone')).toBeNull();
      expect((await rt.stat('file-becomes-folder'))?.type).toBe('dir');
      expect((await rt.stat('new/empty'))?.type).toBe('dir');
      await expect(rt.applyChanges!({ removeFiles: ['../escape'], removeFolders: [], makeFolders: [], writeFiles: [] })).rejects.toThrow(/outside the workspace/);
    });
  });
}
