import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../../in-process';
import { RealGitWorkTree } from '../../../testing/real-git';
import { gitBlobId } from '../../../object-id';
import { packFiles, unpackBaselineFiles } from '../../packed-files';

// The baseline repository is written straight into uncompressed packs: real git must find it whole (fsck), clean,
// and holding the very trees it would have made itself from the same files.

beforeAll(() => {
  try {
    execFileSync('git', ['--version']);
  } catch {
    execFileSync('apt-get', ['install', '-y', 'git'], { stdio: 'ignore' }); // the comparison needs a real git
  }
});

let runtime: EmbeddedRuntime | undefined;
let real: RealGitWorkTree | undefined;
afterEach(async () => {
  await runtime?.dispose();
  real?.remove();
  runtime = real = undefined;
});

/** Files that test the writer's edges: names git sorts unlike plain string order, big and empty files, twins. */
function trickyFiles(): Record<string, Uint8Array> {
  const text = (s: string) => new TextEncoder().encode(s);
  const big = new Uint8Array(200_000).map((_, i) => (i * 7919) % 251); // several stored blocks
  const files: Record<string, Uint8Array> = {
    'a-b.txt': text('dash\n'),
    'a/b.txt': text('folder a\n'),
    'a.b/c.txt': text('dotted folder\n'),
    'ab.txt': text('dash\n'), // the same bytes as a-b.txt: one object
    'empty.txt': new Uint8Array(0),
    'naïve/café.md': text('non-ASCII names\n'),
    'big.bin': big,
    'deep/er/and/deeper/leaf.js': text('export {};\n'),
  };
  // Enough bytes for several packs.
  for (let i = 0; i < 600; i++) files[`gen/m${i % 7}/file${i}.ts`] = text(`export const v${i} = ${i};\n`.repeat(100));
  return files;
}

describe('the baseline repository written as packs', () => {
  it('is whole and clean for real git, with the trees real git makes from the same files', async () => {
    const files = trickyFiles();
    const list = Object.entries(files).map(([path, data]) => ({ path, data }));
    runtime = createEmbeddedRuntime();
    await runtime.importFiles(list);
    await runtime.setBaseline({ name: 'tricky.zip', files: async () => list });
    expect((await runtime.exec('git status --short')).output).toBe('');
    const treeId = (await runtime.exec('git rev-parse HEAD^{tree}')).output.trim();

    real = new RealGitWorkTree();
    for (const [path, data] of Object.entries(unzipSync(await runtime.exportZip({ exclude: [] })))) {
      if (path.endsWith('/')) continue;
      mkdirSync(dirname(join(real.dir, path)), { recursive: true });
      writeFileSync(join(real.dir, path), data);
    }
    expect(real.run('git fsck --strict --full')).toEqual({ output: '', exitCode: 0 });
    expect(real.run('git status --porcelain')).toEqual({ output: '', exitCode: 0 });
    expect(real.run('git rev-parse HEAD^{tree}').output.trim()).toBe(treeId);
    expect(real.run('ls .git/objects/pack/*.pack | wc -l').output.trim()).not.toBe('1');
    expect(real.run('git verify-pack .git/objects/pack/*.idx').exitCode).toBe(0);

    // Real git's own tree of the same files: a fresh repository, add and write-tree.
    real.run('rm -rf .git && git init -q && git add -A');
    expect(real.run('git write-tree').output.trim()).toBe(treeId);
  });

  it('takes the blob ids the page sends with the files: the same repository as from hashing them', async () => {
    const list = await Promise.all(Object.entries(trickyFiles()).map(async ([path, data]) => ({ path, data, blobId: await gitBlobId(data) })));
    runtime = createEmbeddedRuntime();
    await runtime.importFiles(list);
    // Through the worker's message: packed, sent with the ids, unpacked on the other side.
    const sent = unpackBaselineFiles({ ...packFiles(list), blobIds: list.map((file) => file.blobId) });
    expect(sent.every((file, i) => file.blobId === list[i].blobId)).toBe(true);
    await runtime.setBaseline({ name: 'tricky.zip', files: async () => sent });
    expect((await runtime.exec('git status --short')).output).toBe('');
    expect((await runtime.exec('git ls-files -s big.bin')).output).toContain(list.find((file) => file.path === 'big.bin')!.blobId);

    const hashed = createEmbeddedRuntime();
    try {
      const plain = list.map(({ path, data }) => ({ path, data }));
      await hashed.importFiles(plain);
      await hashed.setBaseline({ name: 'tricky.zip', files: async () => plain });
      await hashed.exec('git status');
      expect((await runtime.exec('git rev-parse HEAD^{tree}')).output).toBe((await hashed.exec('git rev-parse HEAD^{tree}')).output);
    } finally {
      await hashed.dispose();
    }
  });

  it('hashes every file itself when the ids that came with them are not one well-formed id per file', () => {
    const list = [{ path: 'a.txt', data: new Uint8Array([1]) }, { path: 'b.txt', data: new Uint8Array([2]) }];
    const id = 'a'.repeat(40);
    for (const blobIds of [[id], [id, 'not an id'], [id, 42], 'x', undefined]) {
      expect(unpackBaselineFiles({ ...packFiles(list), blobIds }).map((file) => file.blobId)).toEqual([undefined, undefined]);
    }
    expect(unpackBaselineFiles({ ...packFiles(list), blobIds: [id, id] }).map((file) => file.blobId)).toEqual([id, id]);
  });

  it('reads back from the packs: git show and a diff against the baseline', async () => {
    const files = trickyFiles();
    const list = Object.entries(files).map(([path, data]) => ({ path, data }));
    runtime = createEmbeddedRuntime();
    await runtime.importFiles(list);
    await runtime.setBaseline({ name: 'tricky.zip', files: async () => list });
    await runtime.exec("printf 'changed\\n' > a/b.txt");
    expect((await runtime.exec('git diff a/b.txt')).output).toContain('-folder a\n+changed\n');
    expect((await runtime.exec('git show HEAD:naïve/café.md')).output).toBe('non-ASCII names\n');
    expect((await runtime.exec('git show HEAD:gen/m3/file10.ts')).output).toBe('export const v10 = 10;\n'.repeat(100));
  });

  it('sees a work-tree file that differs from the baseline in content only, same size', async () => {
    const list = Object.entries(trickyFiles()).map(([path, data]) => ({ path, data }));
    const edited = list.map((file) => (file.path === 'gen/m1/file8.ts' ? { path: file.path, data: file.data.map((byte, i) => (i === 2000 ? 0x58 : byte)) } : file));
    runtime = createEmbeddedRuntime();
    await runtime.importFiles(edited);
    await runtime.setBaseline({ name: 'tricky.zip', files: async () => list });
    expect((await runtime.exec('git status --short')).output).toBe(' M gen/m1/file8.ts\n');
  });
});
