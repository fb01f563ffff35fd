// The behaviour every Runtime must show, as one Vitest suite run against each implementation (embedded/in-process.test.ts,
// webcontainer.test.ts), so the tools can rely on it whichever sandbox the page booted.

import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../types';
import { describeExecContract } from './runtime-contract-exec';
import { POSIX_CONTRACT_SHELL, type ContractShell } from './runtime-contract-shells';

export { JSH_CONTRACT_SHELL, POSIX_CONTRACT_SHELL, type ContractShell } from './runtime-contract-shells';

export type RuntimeContractOptions = {
  /** Extra per-test teardown (the runtime itself is disposed by the suite). */
  cleanup?: () => Promise<void>;
  /** Whether the runtime offers the optional staged import (beginImport); default true. */
  stagedImport?: boolean;
  /** Whether the runtime has git, making the baseline given to setBaseline its first commit; default true. */
  gitBaseline?: boolean;
  /** How the runtime's shell spells what shells spell differently; default POSIX_CONTRACT_SHELL. */
  shell?: ContractShell;
  /** Whether the runtime offers the optional scan and applyChanges; default true. */
  scanAndApply?: boolean;
  /** Whether a command's changes reach the watchers before its exec resolves (and flushChanges exists); default false. */
  changesBeforeResult?: boolean;
};

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const allBytes = () => Uint8Array.from({ length: 256 }, (_, i) => i);

/** Records a runtime's watch batches and waits for the one that reports a path (events, not fixed sleeps). */
function recordWatch(rt: Runtime) {
  const batches: string[][] = [];
  const waiters = new Set<() => void>();
  const stop = rt.watch((paths) => {
    batches.push(paths);
    for (const wake of [...waiters]) wake();
  });
  const reported = (path: string) => batches.some((batch) => batch.includes(path));
  return {
    batches,
    stop,
    /** Resolves once a batch reported `path`; fails after 3 s, naming what was reported. */
    async until(path: string): Promise<void> {
      const deadline = Date.now() + 3000;
      while (!reported(path)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`watch never reported ${path}; saw ${batches.flat().join(', ') || 'nothing'}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
  };
}

/** Registers the shared Runtime behaviour tests for `makeRuntime` under `name`. */
export function describeRuntimeContract(
  name: string,
  makeRuntime: () => Runtime | Promise<Runtime>,
  options: RuntimeContractOptions = {},
): void {
  const shell = options.shell ?? POSIX_CONTRACT_SHELL;
  describe(`Runtime contract: ${name}`, () => {
    let current: Runtime | undefined;
    const fresh = async () => (current = await makeRuntime());

    afterEach(async () => {
      await current?.dispose();
      current = undefined;
      await options.cleanup?.();
    });

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

    describeExecContract(fresh, shell);

    describe('snapshots', () => {
      it('round-trips the workspace through a zip, binary included, node_modules left out', async () => {
        const rt = await fresh();
        await rt.writeFile('src/index.ts', 'export const x = 1;\n');
        await rt.writeFile('assets/all.bin', allBytes());
        await rt.writeFile('node_modules/dep/index.js', 'module.exports = 1;');
        await rt.writeFile('.hidden', 'dot');
        await rt.mkdir('empty');
        const zip = await rt.exportZip();

        const names = Object.keys(unzipSync(zip));
        expect(names).toContain('src/index.ts');
        expect(names).toContain('.hidden');
        expect(names.some((n) => n.startsWith('node_modules'))).toBe(false);
        expect(names.some((n) => n.startsWith('/') || n.startsWith(rt.workdir.slice(1)))).toBe(false);

        await rt.writeFile('extra.txt', 'not in the snapshot');
        await rt.importZip(zip);
        expect(await rt.stat('extra.txt')).toBeNull(); // replace, not merge
        expect(await rt.stat('node_modules')).toBeNull();
        expect(text(await rt.readFile('src/index.ts'))).toBe('export const x = 1;\n');
        expect([...(await rt.readFile('assets/all.bin'))]).toEqual([...allBytes()]);
        expect(text(await rt.readFile('.hidden'))).toBe('dot');
        expect((await rt.stat('empty'))?.type).toBe('dir');
      });

      it('honours an explicit exclude list', async () => {
        const rt = await fresh();
        await rt.writeFile('keep.txt', 'k');
        await rt.writeFile('.git/HEAD', 'ref');
        await rt.writeFile('node_modules/a.js', 'a');
        const names = Object.keys(unzipSync(await rt.exportZip({ exclude: ['.git/**'] })));
        expect(names).toContain('keep.txt');
        expect(names).toContain('node_modules/a.js');
        expect(names.some((n) => n.startsWith('.git'))).toBe(false);
      });

      it('rejects a zip entry that escapes the workspace and changes nothing', async () => {
        const rt = await fresh();
        await rt.writeFile('safe.txt', 'still here');
        const { zipSync } = await import('fflate');
        const evil = zipSync({ '../escape.txt': new TextEncoder().encode('x') });
        await expect(rt.importZip(evil)).rejects.toThrow(/outside the workspace/);
        expect(text(await rt.readFile('safe.txt'))).toBe('still here');
      });

      it('imports a zip over a big workspace: nothing of the old one is left, every new file is there', async () => {
        const rt = await fresh();
        for (let i = 0; i < 300; i++) await rt.writeFile(`old/d${i % 7}/f${i}.txt`, `old ${i}`);
        await rt.writeFile('top.txt', 'old top');
        const { zipSync } = await import('fflate');
        const files: Record<string, Uint8Array> = {};
        for (let i = 0; i < 300; i++) files[`new/d${i % 5}/f${i}.txt`] = new TextEncoder().encode(`new ${i}`);
        await rt.importZip(zipSync(files));
        expect((await rt.readdir('.')).map((e) => e.name)).toEqual(['new']);
        expect((await rt.readdir('new')).map((e) => e.name)).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
        expect(text(await rt.readFile('new/d3/f298.txt'))).toBe('new 298');
        expect((await rt.exec('find new -type f | wc -l')).output.trim()).toBe('300');
      });
    });

    describe('importFiles (optional)', () => {
      const files = (entries: Record<string, string | Uint8Array>) =>
        Object.entries(entries).map(([path, data]) => ({ path, data: typeof data === 'string' ? new TextEncoder().encode(data) : data }));

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

    // Only for runtimes that offer the optional staged import; the others are not asked to (nothing is skipped).
    if (options.stagedImport !== false) describe('beginImport (optional)', () => {
      const files = (entries: Record<string, string | Uint8Array>) =>
        Object.entries(entries).map(([path, data]) => ({ path, data: typeof data === 'string' ? new TextEncoder().encode(data) : data }));
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

    // Only for runtimes with git (the embedded one); a WebContainer has none, and is not asked to.
    if (options.gitBaseline !== false) describe('setBaseline (optional)', () => {
      const imported: Record<string, string> = { 'app.js': 'const greeting = "Hello";\n', 'lib/util.js': 'exports.noop = () => {};\n' };
      const baselineOf = (name: string, files: Record<string, string>) => {
        const baseline = {
          name,
          reads: 0,
          files: async () => {
            baseline.reads++;
            return Object.entries(files).map(([path, content]) => ({ path, data: new TextEncoder().encode(content) }));
          },
        };
        return baseline;
      };
      const importWith = async (rt: Runtime, files: Record<string, string>) => {
        const { zipSync } = await import('fflate');
        await rt.importZip(zipSync(Object.fromEntries(Object.entries(files).map(([p, c]) => [p, new TextEncoder().encode(c)]))));
      };

      it('makes the imported files the first commit: status is clean and git diff shows exactly an edit', async () => {
        const rt = await fresh();
        await importWith(rt, imported);
        await rt.setBaseline!(baselineOf('greeter.zip', imported));
        expect(await rt.exec('git status')).toEqual({ output: 'On branch main\nnothing to commit, working tree clean\n', exitCode: 0 });
        expect((await rt.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} Imported greeter\.zip\n$/);
        expect((await rt.exec('git log')).output).toMatch(/^Author: Conch <conch@localhost>$/m);
        await rt.writeFile('app.js', 'const greeting = "Hi";\n');
        const diff = await rt.exec('git diff');
        expect(diff.exitCode).toBe(0);
        expect(diff.output).toMatch(/^diff --git a\/app\.js b\/app\.js\n/);
        expect(diff.output.split('\n').filter((line) => /^[-+](?![-+])/.test(line))).toEqual(['-const greeting = "Hello";', '+const greeting = "Hi";']);
      });

      it('diffs a restored workspace against the baseline, reading the baseline only when git first runs', async () => {
        const rt = await fresh();
        const baseline = baselineOf('repo.zip', imported);
        await importWith(rt, { ...imported, 'app.js': 'const greeting = "Hey";\n', 'new.txt': 'added\n' });
        await rt.setBaseline!(baseline);
        await rt.exec('ls');
        expect(baseline.reads).toBe(0);
        expect((await rt.exec('git status --short')).output).toBe(' M app.js\n?? new.txt\n');
        expect((await rt.exec('git log --oneline')).output).toMatch(/Imported repo\.zip/);
        expect(baseline.reads).toBe(1);
      });

      it('keeps a repository the workspace already has, and makes none without a baseline', async () => {
        const rt = await fresh();
        await importWith(rt, imported);
        await rt.setBaseline!(null);
        expect((await rt.exec('git status')).output).toMatch(/not a git repository/);
        await rt.exec('git init -b trunk && git add -A && git commit -m own');
        const baseline = baselineOf('again.zip', imported);
        await rt.setBaseline!(baseline);
        expect((await rt.exec('git log --oneline')).output).toMatch(/^[0-9a-f]{7} own\n$/);
        expect(baseline.reads).toBe(0);
      });
    });

    if (options.scanAndApply !== false) describe('scan (optional)', () => {
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

    if (options.scanAndApply !== false) describe('applyChanges (optional)', () => {
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

    if (options.changesBeforeResult) describe('changes before results', () => {
      it('a command\'s changes reach the watchers before its exec resolves', async () => {
        const rt = await fresh();
        const seen: string[] = [];
        const stop = rt.watch((paths) => seen.push(...paths));
        await rt.exec('mkdir -p made && echo x > made/by-command.txt');
        expect(seen).toContain('made/by-command.txt');
        await rt.writeFile('by-method.txt', 'x');
        await rt.flushChanges!();
        expect(seen).toContain('by-method.txt');
        stop();
      });
    });

    describe('watch', () => {
      it('reports writes through the runtime and by commands, relative to the workdir', async () => {
        const rt = await fresh();
        const watch = recordWatch(rt);
        await rt.writeFile('by-method.txt', 'x');
        await watch.until('by-method.txt');
        await rt.exec('mkdir -p out && echo y > out/by-command.txt');
        await watch.until('out/by-command.txt');
        watch.stop();
      });
    });
  });
}
