import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ImportCancelledError, ZipImportError } from '../errors';
import { readFolderFiles, readRepoZip, unzipToMap, zipFromFiles } from './repo-zip';
import { readCentralDirectory } from './directory';
import { crc32 } from '../../runtime/zip/stored-zip';

const hasZipTool = spawnSync('zip', ['-v']).status === 0;
const text = (s: string) => strToU8(s);
const decode = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

async function importError(zip: Uint8Array, options = {}): Promise<ZipImportError> {
  const error = await readRepoZip(zip, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ZipImportError);
  return error as ZipImportError;
}

/** Text that deflates only moderately, like source code. */
function sourceLike(bytes: number, seed: number): string {
  let out = '';
  let x = seed;
  while (out.length < bytes) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out += `const value${x % 997} = compute(${x % 8191}, "${(x >> 7).toString(36)}");\n`;
  }
  return out.slice(0, bytes);
}

describe('readRepoZip', () => {
  it('strips a GitHub download\'s single top folder and keeps binaries byte for byte', async () => {
    const binary = new Uint8Array([0, 255, 1, 254, 0]);
    const zip = zipSync({
      'conch-main/': {},
      'conch-main/README.md': text('# hi\n'),
      'conch-main/src/index.ts': text('export {};\n'),
      'conch-main/logo.png': binary,
    } as Zippable);
    const result = await readRepoZip(zip);
    expect(result.strippedPrefix).toBe('conch-main/');
    expect([...result.files.keys()].sort()).toEqual(['README.md', 'logo.png', 'src/index.ts']);
    expect(decode(result.files.get('src/index.ts'))).toBe('export {};\n');
    expect(result.files.get('logo.png')).toEqual(binary);
    expect(result.totalBytes).toBe(5 + 11 + 5);
  });

  it('does not strip when files sit at the root or in several folders', async () => {
    const result = await readRepoZip(zipSync({ 'a/x.txt': text('1'), 'b/y.txt': text('2') }));
    expect(result.strippedPrefix).toBeUndefined();
    expect([...result.files.keys()].sort()).toEqual(['a/x.txt', 'b/y.txt']);
  });

  it.each([
    ['../evil.sh', 'climbs out'],
    ['repo/../../evil.sh', 'climbs out'],
    ['repo\\..\\..\\evil.sh', 'climbs out'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/evil.dll', 'drive letter'],
  ])('rejects the whole zip when an entry is unsafe: %s', async (name, reason) => {
    const zip = zipSync({ 'repo/ok.txt': text('fine'), [name]: text('bad') });
    const error = await importError(zip);
    expect(error.message).toContain(`"${name}"`);
    expect(error.message).toContain(reason);
    expect(error.message).toMatch(/zip slip.*Nothing was imported/);
    expect(error.entry).toBe(name);
  });

  it('skips symlinks, folders and OS metadata, and says so', async () => {
    const zip = zipSync({
      'repo/real.txt': text('real'),
      'repo/link': [text('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
      'repo/.DS_Store': text('junk'),
      '__MACOSX/repo/._real.txt': text('junk'),
      'repo/empty-dir/': {},
    } as Zippable);
    const result = await readRepoZip(zip);
    expect([...result.files.keys()]).toEqual(['real.txt']);
    expect(result.skipped).toEqual(
      expect.arrayContaining([
        { path: 'repo/link', reason: 'symlink' },
        { path: 'repo/.DS_Store', reason: 'os-metadata' },
        { path: '__MACOSX/repo/._real.txt', reason: 'os-metadata' },
      ]),
    );
  });

  it('rejects a zip bomb by its compression ratio before inflating it', async () => {
    const zip = zipSync({ 'bomb.bin': [new Uint8Array(64 * 1024 ** 2), { level: 9 }] });
    expect(zip.length).toBeLessThan(200_000);
    const started = performance.now();
    const error = await importError(zip);
    expect(performance.now() - started).toBeLessThan(50); // 64 MB of inflating would take far longer
    expect(error.message).toMatch(/"bomb.bin" would expand \d+ times .*zip bomb/);
  });

  it('rejects a bomb made of many small entries by the archive-wide ratio', async () => {
    const files: Zippable = {};
    const zeros = new Uint8Array(900 * 1024); // each entry stays under the per-entry check
    for (let i = 0; i < 100; i++) files[`part${i}.bin`] = [zeros, { level: 9 }];
    const error = await importError(zipSync(files));
    expect(error.message).toMatch(/zip would expand to 87\.9 MB, more than 200 times its size/);
  });

  it('rejects a zip over the total size limit before inflating', async () => {
    const zip = zipSync({ 'a.txt': text(sourceLike(3000, 1)), 'b.txt': text(sourceLike(3000, 2)) });
    const error = await importError(zip, { maxTotalBytes: 5000 });
    expect(error.message).toMatch(/unpacks to 5\.9 KB; the limit is 4\.9 KB/);
  });

  it('catches an entry whose header lies about its size, stopping early', async () => {
    for (const size of [10_000, 4 * 1024 ** 2]) {
      const zip = zipSync({ 'liar.txt': [text(sourceLike(size, 3)), { level: 6 }] });
      // Rewrite the central directory's uncompressed size to 100 bytes.
      const view = new DataView(zip.buffer);
      const central = zip.findLastIndex((_, i) => i + 4 <= zip.length && view.getUint32(i, true) === 0x02014b50);
      view.setUint32(central + 24, 100, true);
      const error = await importError(zip);
      expect(error.message).toMatch(/"liar.txt" unpacks to a different size than the zip declares/);
    }
  });

  it('rejects more files than allowed', async () => {
    const files: Zippable = {};
    for (let i = 0; i < 11; i++) files[`f${i}.txt`] = text('x');
    const error = await importError(zipSync(files), { maxFiles: 10 });
    expect(error.message).toMatch(/has 11 files; the limit is 10/);
  });

  it('reports corrupt and truncated zips clearly', async () => {
    expect((await importError(text('definitely not a zip file, just text'))).message).toMatch(/not a readable zip \(no zip directory found\)/);
    expect((await importError(new Uint8Array(3))).message).toMatch(/too short/);
    const zip = zipSync({ 'a.txt': text(sourceLike(5000, 4)) });
    expect((await importError(zip.subarray(0, zip.length - 30))).message).toMatch(/not a readable zip/);
    const garbled = zip.slice();
    for (let i = 40; i < 200; i++) garbled[i] ^= 0x5a; // inside the deflate stream
    expect((await importError(garbled)).message).toMatch(/"a.txt" (is damaged|unpacks to a different size)/);
  });

  it('rejects a file that is also a folder', async () => {
    const zip = zipSync({ 'a/b': text('file'), 'a/b/c': text('nested') });
    expect((await importError(zip)).message).toMatch(/"a\/b" both as a file and as a folder/);
  });

  it('reports progress and can be cancelled midway', async () => {
    const files: Zippable = {};
    for (let i = 0; i < 400; i++) files[`src/f${i}.ts`] = text(sourceLike(20_000, i));
    const zip = zipSync(files);
    const controller = new AbortController();
    const seen: number[] = [];
    const error = await readRepoZip(zip, {
      signal: controller.signal,
      onProgress: (p) => {
        seen.push(p.files);
        expect(p.totalFiles).toBe(400);
        if (p.files > 0) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportCancelledError);
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBeLessThan(400);

    const done: number[] = [];
    const result = await readRepoZip(zip, { onProgress: (p) => done.push(p.files) });
    expect(result.files.size).toBe(400);
    expect(done.at(-1)).toBe(400);
  });

  it('hands the inflated files to onFiles in batches as it goes: all of them, once, with the top folder stripped', async () => {
    const files: Zippable = {};
    for (let i = 0; i < 300; i++) files[`repo-main/src/f${i}.ts`] = text(sourceLike(20_000, i));
    const batches: { path: string; data: Uint8Array }[][] = [];
    const result = await readRepoZip(zipSync(files), { onFiles: (batch) => batches.push(batch) });
    const handed = batches.flat();
    expect(handed.map((f) => f.path)).toEqual([...result.files.keys()]);
    for (const file of handed) expect(file.data).toBe(result.files.get(file.path));
    expect(handed[0].path).toBe('src/f0.ts');
  });

  it('reads more than 65,535 entries, whether or not the writer used Zip64', async () => {
    const files: Zippable = {};
    for (let i = 0; i < 65_600; i++) files[`d${i % 50}/f${i}`] = [new Uint8Array(0), { level: 0 }];
    // fflate writes the entry count modulo 65,536 and no Zip64 record.
    expect((await readRepoZip(zipSync(files))).files.size).toBe(65_600);
  });

  it.skipIf(!hasZipTool)('reads a Zip64 archive and unix symlinks written by Info-ZIP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conch-zip64-'));
    mkdirSync(join(dir, 'repo'));
    for (let i = 0; i < 66_000; i++) writeFileSync(join(dir, 'repo', `f${i}`), '');
    writeFileSync(join(dir, 'repo', 'real.txt'), 'content\n');
    symlinkSync('/etc/passwd', join(dir, 'repo', 'passwd-link'));
    spawnSync('zip', ['-qry', 'out.zip', 'repo'], { cwd: dir }); // -y stores the symlink as a link
    const result = await readRepoZip(new Uint8Array(readFileSync(join(dir, 'out.zip'))));
    rmSync(dir, { recursive: true, force: true });
    expect(result.files.size).toBe(66_001);
    expect(decode(result.files.get('real.txt'))).toBe('content\n');
    expect(result.skipped).toEqual([{ path: 'repo/passwd-link', reason: 'symlink' }]);
  }, 60_000);
});

describe('zipFromFiles and unzipToMap', () => {
  it('round-trip a workspace', async () => {
    const files = new Map([
      ['a.txt', text('hello')],
      ['deep/b.bin', new Uint8Array([1, 2, 3, 0])],
    ]);
    const back = await unzipToMap(zipFromFiles(files));
    expect(back).toEqual(files);
  });

  it('re-packs an imported repo with the checksums its zip declared, which match the data', async () => {
    const repo = zipSync({ 'repo-main/a.txt': text('alpha\n'), 'repo-main/lib/b.bin': new Uint8Array([0, 9, 255]) });
    const read = await readRepoZip(repo);
    const packed = zipFromFiles(read.files, { level: 0, crcs: read.declaredCrcs });
    const entries = readCentralDirectory(packed);
    expect(entries.map((e) => e.rawName)).toEqual(['a.txt', 'lib/b.bin']);
    for (const entry of entries) expect(entry.crc).toBe(crc32(read.files.get(entry.rawName)!));
    expect(await unzipToMap(packed)).toEqual(read.files);
  });

  it('never strips a workspace zip\'s only folder', async () => {
    const back = await unzipToMap(zipFromFiles(new Map([['src/a.ts', text('x')]])));
    expect([...back.keys()]).toEqual(['src/a.ts']);
  });
});

describe('readFolderFiles', () => {
  it('drops the picked folder\'s name and OS files, and rejects unsafe paths', () => {
    const result = readFolderFiles([
      { path: 'myrepo/package.json', data: text('{}') },
      { path: 'myrepo/src/main.ts', data: text('x') },
      { path: 'myrepo/.DS_Store', data: text('junk') },
    ]);
    expect([...result.files.keys()].sort()).toEqual(['package.json', 'src/main.ts']);
    expect(result.strippedPrefix).toBe('myrepo/');
    expect(result.skipped).toEqual([{ path: 'myrepo/.DS_Store', reason: 'os-metadata' }]);
    expect(() => readFolderFiles([{ path: 'myrepo/../x', data: text('') }])).toThrow(ZipImportError);
    expect(() => readFolderFiles([{ path: 'r/a', data: text('1') }, { path: 'r/b', data: text('1') }], { maxFiles: 1 })).toThrow(/limit is 1/);
  });
});
