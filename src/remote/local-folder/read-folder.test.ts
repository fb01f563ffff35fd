import { describe, expect, it } from 'vitest';
import { gitBlobId } from '../../runtime/object-id';
import { ImportCancelledError, ZipImportError } from '../../store/errors';
import { parseFolderSync } from './folder-sync';
import { readFolder, type FolderImportProgress } from './read-folder';
import { memoryFolder } from './testing/memory-directory';

const text = (data: Uint8Array | undefined) => (data ? new TextDecoder().decode(data) : undefined);

describe('readFolder', () => {
  it('imports nested files and leaves out node_modules, .git and OS metadata, each folder named once', async () => {
    const root = memoryFolder('my-app', {
      'package.json': '{"name":"my-app"}',
      'src/index.ts': 'export {};\n',
      'src/deep/er/util.ts': 'export const x = 1;\n',
      'node_modules/left-pad/index.js': 'module.exports = 1;',
      'node_modules/left-pad/package.json': '{}',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/objects/ab/cdef': 'x',
      'packages/a/node_modules/b/index.js': '1',
      'src/.DS_Store': 'junk',
      '.gitignore': 'node_modules\n',
      'constructor/toString': 'names an object has too',
    });
    const result = await readFolder(root);

    expect([...result.files.keys()].sort()).toEqual(['.gitignore', 'constructor/toString', 'package.json', 'src/deep/er/util.ts', 'src/index.ts']);
    expect(text(result.files.get('src/deep/er/util.ts'))).toBe('export const x = 1;\n');
    expect(result.skipped).toEqual([
      { path: '.git', reason: '.git' },
      { path: 'node_modules', reason: 'node_modules' },
      { path: 'packages/a/node_modules', reason: 'node_modules' },
      { path: 'src/.DS_Store', reason: 'os-metadata' },
    ]);
    expect(root.disk.reads.sort()).toEqual(['.gitignore', 'constructor/toString', 'package.json', 'src/deep/er/util.ts', 'src/index.ts']);
  });

  it('records each file as it was on disk: size, time and git blob id, in a record that survives storage', async () => {
    const root = memoryFolder('my-app', { 'a.txt': 'hello\n', 'b/c.txt': '' });
    const result = await readFolder(root);

    expect(result.sync.folderName).toBe('my-app');
    expect(result.sync.files).toEqual([
      { path: 'a.txt', size: 6, lastModified: root.stat('a.txt')?.lastModified, blobId: 'ce013625030ba8dba906f756967f9e9ca394464a' },
      { path: 'b/c.txt', size: 0, lastModified: root.stat('b/c.txt')?.lastModified, blobId: await gitBlobId(new Uint8Array(0)) },
    ]);
    expect(parseFolderSync(structuredClone(result.sync))).toEqual(result.sync);
    expect(parseFolderSync(JSON.parse(JSON.stringify(result.sync)))).toEqual(result.sync);
  });

  it('refuses a folder with a name the workspace cannot hold safely, importing nothing', async () => {
    const root = memoryFolder('my-app', { 'ok.ts': '1', 'src/a\\..\\..\\evil.ts': 'x' });
    const error = await readFolder(root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZipImportError);
    expect((error as ZipImportError).message).toMatch(/src\/a\\\.\.\\\.\.\\evil\.ts.*climbs out of the folder.*rename it on disk/);

    const drive = memoryFolder('my-app', { 'C:evil.ts': 'x' });
    await expect(readFolder(drive)).rejects.toThrow(/drive letter/);
    const backslash = memoryFolder('my-app', { 'a\\b.ts': 'x' });
    await expect(readFolder(backslash)).rejects.toThrow(/backslash/);
  });

  it('refuses a folder over the file or byte limit before reading any file', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`f${i}.txt`] = 'x'.repeat(100);
    const root = memoryFolder('big', files);

    await expect(readFolder(root, { limits: { maxFiles: 10 } })).rejects.toThrow(/more than 10 files, the limit. Nothing was imported/);
    await expect(readFolder(root, { limits: { maxTotalBytes: 1000 } })).rejects.toThrow(/more than 1000 bytes, the limit/);
    expect(root.disk.reads).toEqual([]);
    expect((await readFolder(root, { limits: { maxFiles: 12, maxTotalBytes: 1200 } })).files.size).toBe(12);
  });

  it('reports progress in files and bytes through listing and reading', async () => {
    const root = memoryFolder('p', { 'a.txt': 'aaaa', 'b/b.txt': 'bb', 'c.txt': 'c' });
    const seen: FolderImportProgress[] = [];
    await readFolder(root, { onProgress: (progress) => seen.push(progress) });

    expect(seen.filter((p) => p.phase === 'listing').at(-1)).toEqual({ phase: 'listing', files: 3, bytes: 7 });
    expect(seen.at(-1)).toEqual({ phase: 'reading', files: 3, bytes: 7, totalFiles: 3, totalBytes: 7 });
    const reading = seen.filter((p) => p.phase === 'reading').map((p) => p.files);
    expect(reading).toEqual([0, 1, 2, 3]);
  });

  it('stops when cancelled and returns nothing', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`dir${i % 10}/f${i}.txt`] = `file ${i}`;
    const root = memoryFolder('p', files);
    const controller = new AbortController();
    const result = readFolder(root, {
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase === 'reading' && progress.files === 20) controller.abort();
      },
    });
    await expect(result).rejects.toBeInstanceOf(ImportCancelledError);
    expect(root.disk.reads.length).toBeLessThan(200);

    const early = new AbortController();
    early.abort();
    await expect(readFolder(root, { signal: early.signal })).rejects.toBeInstanceOf(ImportCancelledError);
  });

  it('reads a file changed between listing and reading as it is now', async () => {
    const root = memoryFolder('p', { 'a.txt': 'old' });
    const result = await readFolder(root, {
      onProgress: (progress) => {
        if (progress.phase === 'reading' && progress.files === 0) root.put('a.txt', 'newer');
      },
    });
    expect(text(result.files.get('a.txt'))).toBe('newer');
    expect(result.sync.files[0].size).toBe(5);
  });
});
