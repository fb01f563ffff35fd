import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../runtime/embedded';
import { unzipToMap, zipFromFiles, ZipImportError, type ZipImportProgress } from '../store';
import { zipSync } from 'fflate';
import { describeSkipped, isCancel } from './import-outcome';
import {
  changesPatch,
  exportWorkspaceZip,
  importRepo,
  revertFile,
  workspaceChanges,
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

  it('exports the workspace with binaries and without node_modules, under a safe name', async () => {
    const runtime = await createEmbeddedRuntime({ files: { 'img.bin': new Uint8Array([0, 255, 1]), 'node_modules/a.js': 'x' } });
    const zip = await unzipToMap(await exportWorkspaceZip(runtime));
    expect([...zip.keys()]).toEqual(['img.bin']);
    expect([...zip.get('img.bin')!]).toEqual([0, 255, 1]);
    expect(workspaceZipName('fix: a/b "c"')).toBe('fix a b c.zip');
    expect(workspaceZipName('')).toBe('workspace.zip');
  });
});
