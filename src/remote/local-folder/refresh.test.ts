import { describe, expect, it } from 'vitest';
import { gitBlobId } from '../../runtime/object-id';
import { readFolder } from './read-folder';
import { outsideEditsSummary, refreshFromDisk } from './refresh';
import { memoryFolder } from './testing/memory-directory';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (data: Uint8Array) => new TextDecoder().decode(data);

describe('refreshFromDisk', () => {
  it('finds the files added, modified and deleted outside Conch, and records the disk as it is now', async () => {
    const root = memoryFolder('my-app', { 'a.ts': 'a1', 'b/c.ts': 'c1', 'gone.ts': 'g', 'same.ts': 's', 'touched.ts': 't' });
    const { sync } = await readFolder(root);
    root.put('a.ts', 'a2 from the editor');
    root.put('b/new.ts', 'new');
    root.delete('gone.ts');
    root.put('touched.ts', 't');
    root.put('node_modules/x/index.js', 'ignored');
    root.disk.reads.length = 0;

    const refresh = await refreshFromDisk(root, sync);

    expect(refresh.edits.map((edit) => [edit.path, edit.status, edit.status === 'deleted' ? null : decode(edit.data)])).toEqual([
      ['a.ts', 'modified', 'a2 from the editor'],
      ['b/new.ts', 'added', 'new'],
      ['gone.ts', 'deleted', null],
    ]);
    expect(refresh.edits[0].before).toBe(await gitBlobId(encode('a1')));
    expect(refresh.skipped).toEqual([{ path: 'node_modules', reason: 'node_modules' }]);
    // Unchanged files are not read; a touched one is read once and is no edit.
    expect(root.disk.reads.sort()).toEqual(['a.ts', 'b/new.ts', 'touched.ts']);
    expect(refresh.sync.files.map((file) => file.path)).toEqual(['a.ts', 'b/c.ts', 'b/new.ts', 'same.ts', 'touched.ts']);
    expect(refresh.sync.files.find((file) => file.path === 'touched.ts')?.lastModified).toBe(root.stat('touched.ts')?.lastModified);

    // Against the new record, nothing has changed.
    expect((await refreshFromDisk(root, refresh.sync)).edits).toEqual([]);
  });
});

describe('outsideEditsSummary', () => {
  it('names the changed files in one line, the first five, with a count of the rest', () => {
    expect(outsideEditsSummary([])).toBeNull();
    expect(outsideEditsSummary([{ path: 'a.ts', status: 'modified' }, { path: 'b/c.ts', status: 'modified' }])).toBe(
      'Changed on disk since the last sync: a.ts, b/c.ts',
    );
    const many = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'g.ts', 'h.ts'].map((path): { path: string; status: 'added' | 'modified' | 'deleted' } => ({ path, status: 'modified' }));
    many[1] = { path: 'b.ts', status: 'added' };
    many[2] = { path: 'c.ts', status: 'deleted' };
    expect(outsideEditsSummary(many)).toBe('Changed on disk since the last sync: a.ts, b.ts (added), c.ts (deleted), d.ts, e.ts (and 3 more)');
  });
});
