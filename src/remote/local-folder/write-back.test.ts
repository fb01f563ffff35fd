import { describe, expect, it } from 'vitest';
import { gitBlobId, type ObjectId } from '../../runtime/object-id';
import type { FolderSync } from './folder-sync';
import { readFolder } from './read-folder';
import { memoryFolder } from './testing/memory-directory';
import { applyWriteBack, planWriteBack, type WorkspaceChange, type WriteBackItem } from './write-back';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (data: Uint8Array | null | undefined) => (data ? new TextDecoder().decode(data) : data);

/** A folder imported into Conch, with the object store that keeps the imported blobs (the merge base). */
async function imported(files: Record<string, string>) {
  const root = memoryFolder('my-app', files);
  const result = await readFolder(root);
  const blobs = new Map<ObjectId, Uint8Array>();
  for (const data of result.files.values()) blobs.set(await gitBlobId(data), data);
  const plan = (changes: WorkspaceChange[], sync: FolderSync = result.sync) =>
    planWriteBack({ root, sync, changes, readBase: async (id) => blobs.get(id) ?? null });
  root.disk.reads.length = 0;
  return { root, sync: result.sync, plan };
}

const modified = (path: string, text: string): WorkspaceChange => ({ path, status: 'modified', data: encode(text) });
const added = (path: string, text: string): WorkspaceChange => ({ path, status: 'added', data: encode(text) });
const deleted = (path: string): WorkspaceChange => ({ path, status: 'deleted' });
const statuses = (items: WriteBackItem[]) => Object.fromEntries(items.map((item) => [item.path, item.status]));
const stampOf = (sync: FolderSync, path: string) => sync.files.find((file) => file.path === path);

describe('planWriteBack and applyWriteBack', () => {
  it('writes only the ticked files, makes parent folders, and removes a confirmed deletion', async () => {
    const { root, sync, plan } = await imported({ 'a.ts': 'a1', 'b.ts': 'b1', 'old.ts': 'gone soon', 'keep.ts': 'k' });
    const planned = await plan([modified('a.ts', 'a2'), modified('b.ts', 'b2'), added('new/dir/c.ts', 'c'), deleted('old.ts')]);
    expect(statuses(planned.items)).toEqual({ 'a.ts': 'modified', 'b.ts': 'modified', 'new/dir/c.ts': 'added', 'old.ts': 'deleted' });
    // Nothing on disk changed since the import: same size and time, so no file was read to decide.
    expect(root.disk.reads).toEqual([]);

    const result = await applyWriteBack(planned, {
      selected: new Set(['a.ts', 'new/dir/c.ts', 'old.ts']),
      confirmedDeletions: new Set(['old.ts']),
    });

    expect(root.filePaths()).toEqual(['a.ts', 'b.ts', 'keep.ts', 'new/dir/c.ts']);
    expect([root.text('a.ts'), root.text('b.ts'), root.text('new/dir/c.ts')]).toEqual(['a2', 'b1', 'c']);
    expect(result).toMatchObject({ written: ['a.ts', 'new/dir/c.ts'], removed: ['old.ts'], failed: [], leftAlone: [] });

    // The new baseline: what was written, with the disk's new time; untouched entries as they were.
    expect(stampOf(result.sync, 'a.ts')).toEqual({ path: 'a.ts', size: 2, lastModified: root.stat('a.ts')?.lastModified, blobId: await gitBlobId(encode('a2')) });
    expect(stampOf(result.sync, 'new/dir/c.ts')?.blobId).toBe(await gitBlobId(encode('c')));
    expect(stampOf(result.sync, 'old.ts')).toBeUndefined();
    expect(stampOf(result.sync, 'b.ts')).toEqual(stampOf(sync, 'b.ts'));
    expect(stampOf(result.sync, 'keep.ts')).toEqual(stampOf(sync, 'keep.ts'));

    // Against the new baseline, the file left unticked is still a plain change, not a conflict.
    const again = await plan([modified('b.ts', 'b2')], result.sync);
    expect(statuses(again.items)).toEqual({ 'b.ts': 'modified' });
  });

  it('leaves a deletion that was ticked but not confirmed, and says so', async () => {
    const { root, plan } = await imported({ 'old.ts': 'still here' });
    const planned = await plan([deleted('old.ts')]);
    const result = await applyWriteBack(planned, { selected: new Set(['old.ts']) });

    expect(root.text('old.ts')).toBe('still here');
    expect(result.leftAlone).toEqual(['old.ts']);
    expect(result.removed).toEqual([]);
    expect(stampOf(result.sync, 'old.ts')).toBeDefined();
  });

  it('calls a file changed on disk since the import a conflict, with the disk, Conch and base versions', async () => {
    const { root, plan } = await imported({ 'a.ts': 'base\n', 'b.ts': 'b' });
    root.put('a.ts', 'disk edit\n');
    const planned = await plan([modified('a.ts', 'conch edit\n'), modified('b.ts', 'b2')]);

    expect(statuses(planned.items)).toEqual({ 'a.ts': 'conflict', 'b.ts': 'modified' });
    const conflict = planned.items[0];
    expect(conflict.status).toBe('conflict');
    if (conflict.status !== 'conflict') return;
    expect([decode(conflict.base), decode(conflict.disk), decode(conflict.conch)]).toEqual(['base\n', 'disk edit\n', 'conch edit\n']);
    expect(conflict.change).toBe('modified');
  });

  it('does not call a file that was only touched (new time, same bytes) a conflict', async () => {
    const { root, plan } = await imported({ 'a.ts': 'same' });
    root.put('a.ts', 'same');
    const planned = await plan([modified('a.ts', 'conch')]);
    expect(statuses(planned.items)).toEqual({ 'a.ts': 'modified' });
    expect(root.disk.reads).toEqual(['a.ts']);
  });

  it('takes a file with the same size and time as unchanged without reading it', async () => {
    const { root, plan, sync } = await imported({ 'a.ts': 'abcd' });
    // An edit that keeps both the size and the time cannot be seen without reading every file; that is the trade.
    root.put('a.ts', 'wxyz', stampOf(sync, 'a.ts')?.lastModified);
    const planned = await plan([modified('a.ts', 'conch')]);
    expect(statuses(planned.items)).toEqual({ 'a.ts': 'modified' });
    expect(root.disk.reads).toEqual([]);
  });

  it('is no conflict when the disk already holds what Conch has', async () => {
    const { root, plan } = await imported({ 'a.ts': 'old', 'gone.ts': 'x' });
    root.put('a.ts', 'same edit');
    root.delete('gone.ts');
    const planned = await plan([modified('a.ts', 'same edit'), deleted('gone.ts')]);
    expect(statuses(planned.items)).toEqual({ 'a.ts': 'modified', 'gone.ts': 'deleted' });
  });

  it('calls a file that appeared on, or vanished from, the disk a conflict', async () => {
    const { root, plan } = await imported({ 'a.ts': 'a' });
    root.put('new.ts', 'made outside');
    root.delete('a.ts');
    const planned = await plan([added('new.ts', 'made in conch'), modified('a.ts', 'a2')]);

    expect(statuses(planned.items)).toEqual({ 'a.ts': 'conflict', 'new.ts': 'conflict' });
    const [vanished, appeared] = planned.items;
    if (vanished.status !== 'conflict' || appeared.status !== 'conflict') throw new Error('expected two conflicts');
    expect([vanished.disk, decode(vanished.base)]).toEqual([null, 'a']);
    expect([decode(appeared.disk), appeared.base]).toEqual(['made outside', null]);
  });

  describe('a conflict, as the person decides it', () => {
    async function conflicted() {
      const setup = await imported({ 'a.ts': 'base', 'other.ts': 'o' });
      setup.root.put('a.ts', 'disk');
      const planned = await setup.plan([modified('a.ts', 'conch')]);
      return { ...setup, planned, diskStamp: setup.root.stat('a.ts') };
    }

    it('keep-disk leaves the disk, hands its version to the workspace, and makes it the baseline', async () => {
      const { root, planned, plan, diskStamp } = await conflicted();
      const result = await applyWriteBack(planned, { selected: new Set(['a.ts']), conflicts: new Map([['a.ts', 'keep-disk']]) });

      expect(root.text('a.ts')).toBe('disk');
      expect(root.disk.writes).toEqual([]);
      expect(result.keptDisk).toEqual(['a.ts']);
      expect(result.workspaceUpdates.map((u) => [u.path, decode(u.data)])).toEqual([['a.ts', 'disk']]);
      expect(stampOf(result.sync, 'a.ts')).toEqual({ path: 'a.ts', ...diskStamp, blobId: await gitBlobId(encode('disk')) });
      expect(statuses((await plan([modified('a.ts', 'conch again')], result.sync)).items)).toEqual({ 'a.ts': 'modified' });
    });

    it("take-conch writes Conch's version over the disk's", async () => {
      const { root, planned } = await conflicted();
      const result = await applyWriteBack(planned, { selected: new Set(['a.ts']), conflicts: new Map([['a.ts', 'take-conch']]) });

      expect(root.text('a.ts')).toBe('conch');
      expect(result.written).toEqual(['a.ts']);
      expect(result.workspaceUpdates).toEqual([]);
      expect(stampOf(result.sync, 'a.ts')?.blobId).toBe(await gitBlobId(encode('conch')));
    });

    it('a merge is written to disk and handed to the workspace', async () => {
      const { root, planned } = await conflicted();
      const merged = encode('disk + conch');
      const result = await applyWriteBack(planned, { selected: new Set(['a.ts']), conflicts: new Map([['a.ts', { merged }]]) });

      expect(root.text('a.ts')).toBe('disk + conch');
      expect(result.workspaceUpdates.map((u) => [u.path, decode(u.data)])).toEqual([['a.ts', 'disk + conch']]);
      expect(stampOf(result.sync, 'a.ts')?.blobId).toBe(await gitBlobId(merged));
    });

    it('a ticked conflict with no choice yet is left alone', async () => {
      const { root, planned, sync } = await conflicted();
      const result = await applyWriteBack(planned, { selected: new Set(['a.ts']) });

      expect(root.text('a.ts')).toBe('disk');
      expect(result.leftAlone).toEqual(['a.ts']);
      expect(stampOf(result.sync, 'a.ts')).toEqual(stampOf(sync, 'a.ts'));
    });

    it("take-conch on a file Conch deleted still needs the deletion's own confirmation", async () => {
      const setup = await imported({ 'a.ts': 'base' });
      setup.root.put('a.ts', 'disk');
      const planned = await setup.plan([deleted('a.ts')]);
      const choices = { selected: new Set(['a.ts']), conflicts: new Map([['a.ts', 'take-conch' as const]]) };

      expect((await applyWriteBack(planned, choices)).leftAlone).toEqual(['a.ts']);
      expect(setup.root.text('a.ts')).toBe('disk');
      expect((await applyWriteBack(planned, { ...choices, confirmedDeletions: new Set(['a.ts']) })).removed).toEqual(['a.ts']);
      expect(setup.root.text('a.ts')).toBeNull();
    });
  });

  it('reports a file whose write fails, keeps its old content whole, and still writes the others', async () => {
    const { root, plan, sync } = await imported({ 'a.ts': 'a1', 'b.ts': 'b1 whole', 'c.ts': 'c1 whole', 'd.ts': 'd1' });
    root.disk.failingWrites.set('b.ts', 'write');
    root.disk.failingWrites.set('c.ts', 'close');
    const planned = await plan(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((path) => modified(path, `${path} new`)));
    const result = await applyWriteBack(planned, { selected: new Set(['a.ts', 'b.ts', 'c.ts', 'd.ts']) });

    expect(result.written).toEqual(['a.ts', 'd.ts']);
    expect(result.failed.map((f) => f.path)).toEqual(['b.ts', 'c.ts']);
    expect(result.failed[0].message).toMatch(/^"b\.ts" could not be written: the disk is full .* The file on disk was left as it was; free some space/);
    expect([root.text('a.ts'), root.text('b.ts'), root.text('c.ts'), root.text('d.ts')]).toEqual(['a.ts new', 'b1 whole', 'c1 whole', 'd.ts new']);
    expect(stampOf(result.sync, 'b.ts')).toEqual(stampOf(sync, 'b.ts'));
    expect(stampOf(result.sync, 'c.ts')).toEqual(stampOf(sync, 'c.ts'));
    // Retrying the failed ones later is a plain write-back against the new record.
    expect(statuses((await plan([modified('b.ts', 'b.ts new')], result.sync)).items)).toEqual({ 'b.ts': 'modified' });
  });

  it('does not overwrite a file changed on disk after the plan was shown', async () => {
    const { root, plan } = await imported({ 'a.ts': 'a1' });
    const planned = await plan([modified('a.ts', 'conch')]);
    root.put('a.ts', 'edited while the person was choosing');
    const result = await applyWriteBack(planned, { selected: new Set(['a.ts']) });

    expect(root.text('a.ts')).toBe('edited while the person was choosing');
    expect(result.failed).toEqual([
      { path: 'a.ts', message: '"a.ts" changed on disk again after the write-back was prepared, so it was not touched; write back again to see the change.' },
    ]);
  });
});
