import { describe, expect, it } from 'vitest';
import type { FolderHandle } from './folder-handle';
import { ensurePermission, permissionMessage } from './permission';
import { memoryFolder } from './testing/memory-directory';

describe('ensurePermission', () => {
  it('is granted without asking when the browser already allows editing', async () => {
    const root = memoryFolder('my-app');
    expect(await ensurePermission(root)).toBe('granted');
  });

  it('after a reload, needs a click; asked from one, the person can grant or deny it', async () => {
    const root = memoryFolder('my-app');
    root.disk.permission = 'prompt';
    expect(await ensurePermission(root)).toBe('needs-gesture');
    // Asked outside a click, the browser refuses to prompt.
    expect(await ensurePermission(root, { request: true })).toBe('needs-gesture');

    root.disk.userActivation = true;
    expect(await ensurePermission(root, { request: true })).toBe('granted');
    expect(await ensurePermission(root)).toBe('granted');

    const other = memoryFolder('other');
    other.disk.permission = 'prompt';
    other.disk.userActivation = true;
    other.disk.answerOnRequest = 'denied';
    expect(await ensurePermission(other, { request: true })).toBe('denied');
    expect(permissionMessage('denied', 'other')).toMatch(/does not let Conch edit the folder "other"/);
  });

  it('grants an origin-private folder that has no permission methods', async () => {
    const root = memoryFolder('opfs');
    const bare: FolderHandle = {
      kind: 'directory',
      name: root.name,
      values: () => root.values(),
      getFileHandle: (name, options) => root.getFileHandle(name, options),
      getDirectoryHandle: (name, options) => root.getDirectoryHandle(name, options),
      removeEntry: (name, options) => root.removeEntry(name, options),
    };
    expect(await ensurePermission(bare, { request: true })).toBe('granted');
  });
});
