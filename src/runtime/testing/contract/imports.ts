// The contract's whole-workspace imports (runtime-contract.ts): importFiles, and the optional staged import
// (beginImport) whose files replace the workspace only on commit.

import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../types';
import { allBytes, text } from './bytes';
import { recordWatch } from './record-watch';

const files = (entries: Record<string, string | Uint8Array>) =>
  Object.entries(entries).map(([path, data]) => ({ path, data: typeof data === 'string' ? new TextEncoder().encode(data) : data }));

/** Registers the importFiles cases; `fresh` makes the runtime under test (the suite disposes it). */
export function describeImportFilesContract(fresh: () => Promise<Runtime>): void {
  describe('importFiles (optional)', () => {
    it('is implemented', async () => {
      const rt = await fresh();
      expect(typeof rt.importFiles).toBe('function');
    });

    it('replaces the workspace with the files, creating their folders, byte-exact', async () => {
      const rt = await fresh();
      await rt.writeFile('old/gone.txt', 'old');
      await rt.writeFile('top.txt', 'old top');
      await rt.exec('mkdir -p sub && cd sub');
      await rt.importFiles!(files({ 'src/a/b.ts': 'export {};\n', 'README.md': '# hi', 'bin/all.bin': allBytes() }));
      expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['README.md', 'bin', 'src']);
      expect(text(await rt.readFile('src/a/b.ts'))).toBe('export {};\n');
      expect([...(await rt.readFile('bin/all.bin'))]).toEqual([...allBytes()]);
      expect((await rt.exec('pwd')).output.trim()).toBe(rt.workdir); // the shell is back in the workdir
      expect((await rt.exec('cat README.md')).output).toBe('# hi');
    });

    it('gives the same workspace as importZip of the same files', async () => {
      const rt = await fresh();
      const list = files({ 'a.txt': 'A', 'deep/er/b.txt': 'B', '.env.example': 'X=1' });
      await rt.importFiles!(list);
      const viaFiles = unzipSync(await rt.exportZip());
      const { zipSync } = await import('fflate');
      await rt.importZip(zipSync(Object.fromEntries(list.map((f) => [f.path, f.data]))));
      const viaZip = unzipSync(await rt.exportZip());
      expect(Object.keys(viaFiles).sort()).toEqual(Object.keys(viaZip).sort());
      for (const name of Object.keys(viaZip)) expect([...viaFiles[name]]).toEqual([...viaZip[name]]);
    });

    it('rejects paths outside the workspace and file/folder clashes, changing nothing', async () => {
      const rt = await fresh();
      await rt.writeFile('safe.txt', 'still here');
      await expect(rt.importFiles!(files({ 'ok.txt': 'x', '../escape.txt': 'x' }))).rejects.toThrow(/outside the workspace/);
      await expect(rt.importFiles!(files({ '/etc/passwd': 'x' }))).rejects.toThrow(/outside the workspace/);
      await expect(rt.importFiles!(files({ 'a': 'file', 'a/b.txt': 'x' }))).rejects.toThrow(/both a file and a folder/);
      expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['safe.txt']);
      expect(text(await rt.readFile('safe.txt'))).toBe('still here');
    });

    it('tells watchers about the new files', async () => {
      const rt = await fresh();
      const watch = recordWatch(rt);
      await rt.importFiles!(files({ 'w/x.txt': 'x' }));
      await watch.until('w/x.txt');
      watch.stop();
    });
  });
}

/** Registers the staged import cases, for runtimes that offer beginImport. */
export function describeStagedImportContract(fresh: () => Promise<Runtime>): void {
  describe('beginImport (optional)', () => {
    const snapshot = async (rt: Runtime) => {
      const entries = unzipSync(await rt.exportZip({ exclude: [] }));
      return Object.fromEntries(Object.entries(entries).map(([name, data]) => [name, text(data)]));
    };

    it('changes nothing until commit, then the committed files replace the workspace', async () => {
      const rt = await fresh();
      await rt.writeFile('old/gone.txt', 'old');
      await rt.exec('echo kept > /tmp/outside.txt && mkdir -p sub && cd sub');
      const staged = rt.beginImport!();
      staged.add(files({ 'src/a/b.ts': 'export {};\n', 'README.md': '# hi' }));
      staged.add(files({ 'bin/all.bin': allBytes(), 'src/c.ts': 'c' }));
      expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['old', 'sub']);
      expect(await rt.stat('README.md')).toBeNull();
      await staged.commit();
      expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['README.md', 'bin', 'src']);
      expect(text(await rt.readFile('src/a/b.ts'))).toBe('export {};\n');
      expect([...(await rt.readFile('bin/all.bin'))]).toEqual([...allBytes()]);
      expect((await rt.exec('pwd')).output.trim()).toBe(rt.workdir);
      expect((await rt.exec('cat src/c.ts /tmp/outside.txt')).output).toBe('ckept\n'); // outside the workdir stays
      await rt.writeFile('after.txt', 'writable');
      expect((await rt.exec('ls')).output.split('\n')).toContain('after.txt');
    });

    it('a discarded import, or one with a bad file, leaves the workspace exactly as it was', async () => {
      const rt = await fresh();
      await rt.writeFile('keep/me.txt', 'still here');
      await rt.writeFile('top.txt', 'top');
      const before = await snapshot(rt);
      const discarded = rt.beginImport!();
      discarded.add(files({ 'new.txt': 'new' }));
      discarded.discard();
      await expect(discarded.commit()).rejects.toThrow(/import/);
      expect(await snapshot(rt)).toEqual(before);
      const escaping = rt.beginImport!();
      escaping.add(files({ 'ok.txt': 'x' }));
      escaping.add(files({ '../escape.txt': 'x' }));
      await expect(escaping.commit()).rejects.toThrow(/outside the workspace/);
      const clashing = rt.beginImport!();
      clashing.add(files({ 'a': 'file' }));
      clashing.add(files({ 'a/b.txt': 'x' }));
      await expect(clashing.commit()).rejects.toThrow(/both a file and a folder/);
      expect(await snapshot(rt)).toEqual(before);
      expect((await rt.exec('cat keep/me.txt')).output).toBe('still here');
    });

    it('tells watchers once, on commit, about the removed and the new files', async () => {
      const rt = await fresh();
      const watch = recordWatch(rt);
      await rt.writeFile('old.txt', 'old');
      await watch.until('old.txt'); // that write's own report has gone by
      watch.batches.length = 0;
      const staged = rt.beginImport!();
      staged.add(files({ 'w/x.txt': 'x' }));
      staged.add(files({ 'y.txt': 'y' }));
      // Reports arrive in order: once a later write is reported, anything the staging reported has arrived too.
      await rt.writeFile('probe-before.txt', 'p');
      await watch.until('probe-before.txt');
      expect(watch.batches.flat()).not.toContain('w/x.txt');
      await staged.commit();
      await watch.until('w/x.txt');
      await rt.writeFile('probe-after.txt', 'p');
      await watch.until('probe-after.txt');
      watch.stop();
      const imports = watch.batches.filter((batch) => batch.includes('w/x.txt') || batch.includes('y.txt') || batch.includes('old.txt'));
      expect(imports).toHaveLength(1);
      expect(imports[0]).toEqual(expect.arrayContaining(['old.txt', 'w/x.txt', 'y.txt']));
    });
  });
}
