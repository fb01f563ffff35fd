// The in-memory folder must behave as the browser's does, or the tests built on it prove nothing.
import { describe, expect, it } from 'vitest';
import { errorName } from '../folder-handle';
import { memoryFolder } from './memory-directory';

const encode = (text: string) => new TextEncoder().encode(text);
const failure = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => errorName(error));

describe('memoryFolder', () => {
  it('answers a missing name with NotFoundError and the wrong kind with TypeMismatchError', async () => {
    const root = memoryFolder('p', { 'a.txt': 'a', 'dir/b.txt': 'b' });
    expect(await failure(root.getFileHandle('missing.txt'))).toBe('NotFoundError');
    expect(await failure(root.getFileHandle('dir'))).toBe('TypeMismatchError');
    expect(await failure(root.getDirectoryHandle('a.txt'))).toBe('TypeMismatchError');
    expect(await failure(root.removeEntry('dir'))).toBe('InvalidModificationError');
    expect(await failure(root.getFileHandle('x/y'))).toBe('TypeError');
    await root.removeEntry('dir', { recursive: true });
    expect(root.filePaths()).toEqual(['a.txt']);
  });

  it('replaces a file only when its writable closes, and not at all after abort', async () => {
    const root = memoryFolder('p', { 'a.txt': 'old' });
    const file = await root.getFileHandle('a.txt');
    const writable = await file.createWritable();
    await writable.write(encode('new '));
    await writable.write(encode('content'));
    expect(root.text('a.txt')).toBe('old');
    await writable.close();
    expect(root.text('a.txt')).toBe('new content');

    const aborted = await file.createWritable();
    await aborted.write(encode('half'));
    await aborted.abort();
    expect(root.text('a.txt')).toBe('new content');
  });

  it('gives snapshots that refuse to read once the file changed, as Chromium does', async () => {
    const root = memoryFolder('p', { 'a.txt': 'one' });
    const snapshot = await (await root.getFileHandle('a.txt')).getFile();
    root.put('a.txt', 'two');
    expect(await failure(snapshot.arrayBuffer())).toBe('NotReadableError');
  });
});
