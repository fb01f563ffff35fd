// The contract's file cases (runtime-contract.ts): read and write, folders and listings, stat, errors, rm, rename.

import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../types';
import { allBytes, text } from './bytes';

/** Registers the file method cases; `fresh` makes the runtime under test (the suite disposes it). */
export function describeFilesContract(fresh: () => Promise<Runtime>): void {
  describe('files', () => {
    it('writes and reads text, overwriting', async () => {
      const rt = await fresh();
      await rt.writeFile('notes.txt', 'first');
      await rt.writeFile('notes.txt', 'second ✓');
      expect(text(await rt.readFile('notes.txt'))).toBe('second ✓');
      expect(text(await rt.readFile(`${rt.workdir}/notes.txt`))).toBe('second ✓');
    });

    it('keeps binary content byte-exact', async () => {
      const rt = await fresh();
      await rt.writeFile('all.bin', allBytes());
      expect([...(await rt.readFile('all.bin'))]).toEqual([...allBytes()]);
    });

    it('creates parent folders and lists entries with their types, sorted', async () => {
      const rt = await fresh();
      await rt.writeFile('a/b/c.txt', 'deep');
      await rt.mkdir('a/empty/inner');
      expect(await rt.readdir('a')).toEqual([
        { name: 'b', type: 'dir' },
        { name: 'empty', type: 'dir' },
      ]);
      expect(await rt.readdir('a/b')).toEqual([{ name: 'c.txt', type: 'file' }]);
      await rt.mkdir('a/b'); // recursive: an existing folder is fine
    });

    it('stats files (size in bytes), folders and missing paths', async () => {
      const rt = await fresh();
      await rt.writeFile('dir/u.txt', 'é🎉'); // 2 + 4 UTF-8 bytes
      expect(await rt.stat('dir/u.txt')).toEqual({ type: 'file', size: 6 });
      expect((await rt.stat('dir'))?.type).toBe('dir');
      expect((await rt.stat('.'))?.type).toBe('dir');
      expect(await rt.stat('dir/missing.txt')).toBeNull();
      expect(await rt.stat('missing/deeper.txt')).toBeNull();
    });

    it('explains missing files, files used as folders and folders read as files', async () => {
      const rt = await fresh();
      await rt.writeFile('file.txt', 'x');
      await rt.mkdir('folder');
      await expect(rt.readFile('missing.txt')).rejects.toThrow(/ENOENT.*missing\.txt/);
      await expect(rt.readdir('file.txt')).rejects.toThrow(/not a directory/);
      await expect(rt.readdir('nowhere')).rejects.toThrow(/ENOENT.*nowhere/);
      await expect(rt.readFile('folder')).rejects.toThrow(/is a directory/);
    });

    it('removes files, and folders only when recursive', async () => {
      const rt = await fresh();
      await rt.writeFile('gone.txt', 'x');
      await rt.writeFile('tree/leaf/file.txt', 'x');
      await rt.rm('gone.txt');
      expect(await rt.stat('gone.txt')).toBeNull();
      await expect(rt.rm('tree')).rejects.toThrow(/recursive/);
      await rt.rm('tree', { recursive: true });
      expect(await rt.stat('tree')).toBeNull();
      await expect(rt.rm('never-was.txt')).rejects.toThrow(/ENOENT.*never-was\.txt/);
    });

    it('renames files and folders, creating the target folder', async () => {
      const rt = await fresh();
      await rt.writeFile('old.txt', 'moved');
      await rt.rename('old.txt', 'new/place.txt');
      expect(await rt.stat('old.txt')).toBeNull();
      expect(text(await rt.readFile('new/place.txt'))).toBe('moved');
      await rt.rename('new', 'renamed');
      expect(text(await rt.readFile('renamed/place.txt'))).toBe('moved');
    });
  });
}
