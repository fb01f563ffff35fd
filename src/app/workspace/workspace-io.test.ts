import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmbeddedRuntime, type EmbeddedRuntime } from '../../runtime/embedded';
import type { StagedImport } from '../../runtime/types';
import { unzipToMap, zipFromFiles, ZipImportError, type ZipImportProgress } from '../../store';
import { zipSync } from 'fflate';
import { describeSkipped, isCancel } from './import-outcome';
import {
  changesPatch,
  exportWorkspaceZip,
  importRepo,
  revertFile,
  workspaceChanges,
  patchName,
  workspaceZipName,
} from './workspace-io';

const enc = new TextEncoder();
const dec = new TextDecoder();
const files = (entries: Record<string, string | Uint8Array>) =>
  new Map(Object.entries(entries).map(([p, v]) => [p, typeof v === 'string' ? enc.encode(v) : v]));

describe('importRepo', () => {
  it('replaces the workspace with the repo, strips the download folder and reports progress', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'old.txt': 'gone after import' } });
    const zip = zipFromFiles(files({ 'app-main/a.txt': 'a', 'app-main/src/b.ts': 'b' }));
    const progress: ZipImportProgress[] = [];
    const result = await importRepo(runtime, { kind: 'zip', name: 'app.zip', data: zip }, { onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ files: 2, bytes: 2, strippedPrefix: 'app-main/' });
    expect((await runtime.readdir(runtime.workdir)).map((e) => e.name).sort()).toEqual(['a.txt', 'src']);
    expect(progress.at(-1)).toEqual({ files: 2, bytes: 2, totalFiles: 2, totalBytes: 2 });
    expect([...(await unzipToMap(result.zip)).keys()].sort()).toEqual(['a.txt', 'src/b.ts']);
  });

  it('refuses a zip-slip entry with a message, leaving the workspace untouched', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'mine.txt': 'keep' } });
    const evil = zipSync({ '../escape.txt': enc.encode('x') });
    const error = await importRepo(runtime, { kind: 'zip', name: 'evil.zip', data: evil }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZipImportError);
    expect((error as Error).message).toMatch(/zip slip/);
    expect(dec.decode(await runtime.readFile('mine.txt'))).toBe('keep');
  });

  it('a cancelled import changes nothing and is recognised as a cancel', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'mine.txt': 'keep' } });
    const controller = new AbortController();
    controller.abort();
    const error = await importRepo(runtime, { kind: 'zip', name: 'r.zip', data: zipFromFiles(files({ 'a.txt': 'a' })) }, { signal: controller.signal }).catch((e: unknown) => e);
    expect(isCancel(error)).toBe(true);
    expect((await runtime.readdir(runtime.workdir)).map((e) => e.name)).toEqual(['mine.txt']);
  });

  describe('staged in the sandbox while the zip inflates', () => {
    afterEach(() => vi.restoreAllMocks());

    // Every entry takes "31 ms", so readRepoZip hands each file over on its own, before the next is inflated.
    const slowClock = () => {
      let now = Date.now();
      vi.spyOn(Date, 'now').mockImplementation(() => (now += 31));
    };
    const watched = (runtime: EmbeddedRuntime) => {
      const seen = { added: 0, committed: false, discarded: false };
      const beginImport = (): StagedImport => {
        const staged = runtime.beginImport();
        return {
          add: (batch) => ((seen.added += batch.length), staged.add(batch)),
          commit: () => ((seen.committed = true), staged.commit()),
          discard: () => ((seen.discarded = true), staged.discard()),
        };
      };
      return { seen, target: { importZip: runtime.importZip.bind(runtime), importFiles: runtime.importFiles.bind(runtime), beginImport } };
    };
    const workspace = async (runtime: EmbeddedRuntime) => [...(await unzipToMap(await runtime.exportZip({ exclude: [] })))].map(([p, d]) => [p, dec.decode(d)]);

    it('a size lie in a late entry leaves the previous workspace untouched, though earlier files were staged', async () => {
      const runtime = createEmbeddedRuntime({ files: { 'mine.txt': 'keep', 'src/old.ts': 'old' } });
      const before = await workspace(runtime);
      const entries: Record<string, Uint8Array> = {};
      for (let i = 0; i < 5; i++) entries[`repo/f${i}.txt`] = enc.encode(`file ${i}`);
      entries['repo/z-liar.txt'] = enc.encode('x'.repeat(10_000));
      const zip = zipSync(entries, { level: 6 });
      const view = new DataView(zip.buffer);
      const central = zip.findLastIndex((_, i) => i + 4 <= zip.length && view.getUint32(i, true) === 0x02014b50);
      view.setUint32(central + 24, 100, true); // the last entry claims to unpack to 100 bytes
      slowClock();
      const { seen, target } = watched(runtime);
      const error = await importRepo(target, { kind: 'zip', name: 'r.zip', data: zip }).catch((e: unknown) => e);
      vi.restoreAllMocks();
      expect(error).toBeInstanceOf(ZipImportError);
      expect((error as Error).message).toMatch(/"repo\/z-liar.txt" unpacks to a different size/);
      expect(seen).toEqual({ added: 5, committed: false, discarded: true });
      expect(await workspace(runtime)).toEqual(before);
    });

    it('a cancel midway discards what was staged; a finished import commits every file', async () => {
      const runtime = createEmbeddedRuntime({ files: { 'mine.txt': 'keep' } });
      const entries: Record<string, Uint8Array> = {};
      for (let i = 0; i < 5; i++) entries[`f${i}.txt`] = enc.encode(`file ${i}`);
      const zip = zipSync(entries);
      slowClock();
      const controller = new AbortController();
      const cancelled = watched(runtime);
      const source = { kind: 'zip', name: 'r.zip', data: zip } as const;
      const onProgress = (p: ZipImportProgress) => p.files >= 2 && controller.abort();
      const error = await importRepo(cancelled.target, source, { signal: controller.signal, onProgress }).catch((e: unknown) => e);
      vi.restoreAllMocks();
      expect(isCancel(error)).toBe(true);
      expect(cancelled.seen).toMatchObject({ committed: false, discarded: true });
      expect(cancelled.seen.added).toBeGreaterThan(0);
      expect(await workspace(runtime)).toEqual([['mine.txt', 'keep']]);

      slowClock();
      const finished = watched(runtime);
      const result = await importRepo(finished.target, source);
      vi.restoreAllMocks();
      expect(result.files).toBe(5);
      expect(finished.seen).toMatchObject({ added: 5, committed: true });
      expect((await workspace(runtime)).map(([p]) => p).sort()).toEqual(Object.keys(entries));
    });
  });

  it('imports a picked folder without its top folder name, skipping OS metadata', async () => {
    const runtime = await createEmbeddedRuntime();
    const result = await importRepo(runtime, {
      kind: 'folder',
      name: 'proj',
      entries: [
        { path: 'proj/index.html', data: enc.encode('<p>hi</p>') },
        { path: 'proj/.DS_Store', data: enc.encode('junk') },
      ],
    });
    expect(result.files).toBe(1);
    expect(describeSkipped(result.skipped)).toBe('Skipped 1 system metadata file.');
    expect(dec.decode(await runtime.readFile('index.html'))).toBe('<p>hi</p>');
  });
});

describe('changes since the baseline', () => {
  it('lists added, modified, deleted and binary files; reverts one file; the patch names each text change', async () => {
    const baseline = files({ 'keep.txt': 'same\n', 'edit.txt': 'one\ntwo\n', 'remove.txt': 'bye\n', 'logo.png': new Uint8Array([0, 1, 2]) });
    const runtime = await createEmbeddedRuntime({ files: Object.fromEntries(baseline) });
    await runtime.writeFile('edit.txt', 'one\nTWO\n');
    await runtime.rm(`${runtime.workdir}/remove.txt`);
    await runtime.writeFile('added.txt', 'new\n');
    await runtime.writeFile('logo.png', new Uint8Array([0, 9, 9]));
    await runtime.writeFile('node_modules/x/index.js', 'ignored');

    const changes = await workspaceChanges(runtime, baseline);
    expect(changes.map((c) => [c.path, c.status, c.binary])).toEqual([
      ['added.txt', 'added', false],
      ['edit.txt', 'modified', false],
      ['logo.png', 'modified', true],
      ['remove.txt', 'deleted', false],
    ]);
    const patch = changesPatch(changes);
    expect(patch).toContain('diff --git a/edit.txt b/edit.txt');
    expect(patch).toContain('+TWO');
    expect(patch).toContain('Binary files a/logo.png and b/logo.png differ');

    await revertFile(runtime, changes[1], baseline);
    await revertFile(runtime, changes[0], baseline);
    await revertFile(runtime, changes[3], baseline);
    const after = await workspaceChanges(runtime, baseline);
    expect(after.map((c) => c.path)).toEqual(['logo.png']);
  });

  it('leaves .git out of the changes and the download unless asked, also when the baseline came with one', async () => {
    const baseline = files({ 'a.txt': 'a\n', '.git/HEAD': 'ref: refs/heads/main\n' });
    const runtime = await createEmbeddedRuntime({ files: { 'a.txt': 'A\n', '.git/HEAD': 'ref: refs/heads/topic\n', 'sub/.git/config': 'x' } });
    expect((await workspaceChanges(runtime, baseline)).map((c) => c.path)).toEqual(['a.txt']);
    expect((await workspaceChanges(runtime, baseline, { includeGit: true })).map((c) => c.path)).toEqual(['.git/HEAD', 'a.txt', 'sub/.git/config']);
    expect([...(await unzipToMap(await exportWorkspaceZip(runtime))).keys()]).toEqual(['a.txt']);
    expect([...(await unzipToMap(await exportWorkspaceZip(runtime, { includeGit: true }))).keys()].sort()).toEqual(['.git/HEAD', 'a.txt', 'sub/.git/config']);
  });

  it('exports the workspace with binaries and without node_modules, under a safe name', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'img.bin': new Uint8Array([0, 255, 1]), 'node_modules/a.js': 'x' } });
    const zip = await unzipToMap(await exportWorkspaceZip(runtime));
    expect([...zip.keys()]).toEqual(['img.bin']);
    expect([...zip.get('img.bin')!]).toEqual([0, 255, 1]);
    const day = new Date(2026, 10, 30);
    expect(workspaceZipName('fix: a/b "c"', day)).toBe('fix-a-b-c-2026-11-30.zip');
    expect(workspaceZipName('', day)).toBe('workspace-2026-11-30.zip');
    expect(patchName('fix: a/b "c"', day)).toBe('fix-a-b-c-2026-11-30.patch');
  });
});
