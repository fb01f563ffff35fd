import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileMap } from '../types';
import { diffWorkspaces, formatPatch } from './workspace-diff';

const enc = (s: string) => new TextEncoder().encode(s);
const map = (entries: Record<string, string | Uint8Array>): FileMap =>
  new Map(Object.entries(entries).map(([p, v]) => [p, typeof v === 'string' ? enc(v) : v]));

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` into a fresh directory, applies `patch` with the real git, and returns the resulting tree. */
function gitApply(files: FileMap, patch: string): { status: number | null; stderr: string; read(p: string): string | null } {
  const dir = mkdtempSync(join(tmpdir(), 'conch-patch-'));
  dirs.push(dir);
  for (const [path, data] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  writeFileSync(join(dir, '..', `${dir.split('/').pop()}.patch`), patch);
  const patchFile = join(dir, '..', `${dir.split('/').pop()}.patch`);
  const check = spawnSync('git', ['apply', '--check', patchFile], { cwd: dir, encoding: 'utf8' });
  const run = check.status === 0 ? spawnSync('git', ['apply', patchFile], { cwd: dir, encoding: 'utf8' }) : check;
  rmSync(patchFile);
  return {
    status: run.status,
    stderr: run.stderr,
    read: (p) => (existsSync(join(dir, p)) ? readFileSync(join(dir, p), 'utf8') : null),
  };
}

const baseline = map({
  'README.md': '# Project\n\nIntro.\n',
  'src/keep.ts': 'unchanged\n',
  'src/main.ts': Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
  'src/old.ts': 'to be deleted\nsecond\n',
  'notes.txt': 'no newline at end',
  'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
  'docs/with space.md': 'spaced\n',
});

describe('diffWorkspaces', () => {
  it('lists added, modified and deleted files, with binaries flagged and no text for them', () => {
    const current = new Map(baseline);
    current.set('src/new.ts', enc('export const x = 1;\n'));
    current.delete('src/old.ts');
    current.set('README.md', enc('# Project\n\nBetter intro.\n'));
    current.set('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]));
    const changes = diffWorkspaces(baseline, current);
    expect(changes.map((c) => [c.path, c.status, c.binary])).toEqual([
      ['README.md', 'modified', false],
      ['logo.png', 'modified', true],
      ['src/new.ts', 'added', false],
      ['src/old.ts', 'deleted', false],
    ]);
    expect(changes[0]).toMatchObject({ oldText: '# Project\n\nIntro.\n', newText: '# Project\n\nBetter intro.\n' });
    expect(changes[1].oldText).toBeUndefined();
    expect(changes[2].oldText).toBeUndefined();
    expect(changes[3].newText).toBeUndefined();
  });

  it('treats invalid UTF-8 as binary', () => {
    const changes = diffWorkspaces(new Map(), map({ 'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]) }));
    expect(changes[0].binary).toBe(true);
  });
});

describe('formatPatch', () => {
  it('produces a patch the real `git apply` accepts on the original files', () => {
    const current = new Map(baseline);
    const main = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    main[2] = 'line three, edited';
    main.splice(20, 1);
    main.push('line 31');
    current.set('src/main.ts', enc(main.join('\n') + '\n'));
    current.set('src/new.ts', enc('export const x = 1;\n'));
    current.set('src/new-no-eol.ts', enc('no eol'));
    current.set('src/empty.ts', enc(''));
    current.delete('src/old.ts');
    current.set('notes.txt', enc('no newline at end, still none'));
    current.set('README.md', enc('# Project\n\nIntro.\nNow ends with a newline too.\n'));
    current.set('docs/with space.md', enc('spaced, edited\n'));
    current.set('logo.png', new Uint8Array([1, 2, 3, 0]));
    current.set('new.bin', new Uint8Array([0, 0, 1]));

    const patch = formatPatch(diffWorkspaces(baseline, current));
    expect(patch).toContain('diff --git a/src/new.ts b/src/new.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/new.ts\n@@ -0,0 +1 @@\n+export const x = 1;\n');
    expect(patch).toContain('diff --git a/src/old.ts b/src/old.ts\ndeleted file mode 100644\n--- a/src/old.ts\n+++ /dev/null\n@@ -1,2 +0,0 @@\n');
    expect(patch).toContain('\\ No newline at end of file');
    expect(patch).toContain('Binary files a/logo.png and b/logo.png differ');
    expect(patch).toContain('Binary files /dev/null and b/new.bin differ');

    const applied = gitApply(baseline, patch);
    expect(applied.stderr).toBe('');
    expect(applied.status).toBe(0);
    for (const [path, data] of current) {
      if (path.endsWith('.png') || path.endsWith('.bin')) continue;
      expect(applied.read(path), path).toBe(new TextDecoder().decode(data));
    }
    expect(applied.read('src/old.ts')).toBeNull();
  });

  it('handles a file losing its final newline and one gaining it', () => {
    const before = map({ 'a.txt': 'one\ntwo\n', 'b.txt': 'one\ntwo' });
    const after = map({ 'a.txt': 'one\ntwo', 'b.txt': 'one\ntwo\n' });
    const applied = gitApply(before, formatPatch(diffWorkspaces(before, after)));
    expect(applied.status).toBe(0);
    expect(applied.read('a.txt')).toBe('one\ntwo');
    expect(applied.read('b.txt')).toBe('one\ntwo\n');
  });

  it('quotes awkward file names the way git reads them', () => {
    const before = map({ 'we"ird\\name.txt': 'x\n' });
    const after = map({ 'we"ird\\name.txt': 'y\n' });
    const patch = formatPatch(diffWorkspaces(before, after));
    expect(patch).toContain('diff --git "a/we\\"ird\\\\name.txt" "b/we\\"ird\\\\name.txt"');
    const applied = gitApply(before, patch);
    expect(applied.status).toBe(0);
    expect(applied.read('we"ird\\name.txt')).toBe('y\n');
  });

  it('is empty when nothing changed', () => {
    expect(formatPatch(diffWorkspaces(baseline, new Map(baseline)))).toBe('');
  });
});
