import { describe, expect, it } from 'vitest';
import { createEditTool } from './edit/edit';
import { readText, runtimeWith, textOf } from './testing/tool-kit';
import { createWriteTool } from './write';

describe('write tool', () => {
  it('creates parent folders and reports what it wrote', async () => {
    const runtime = await runtimeWith();
    const result = await createWriteTool(runtime).execute('id', { path: 'deep/er/new.txt', content: 'héllo\nworld\n' });
    expect(await readText(runtime, 'deep/er/new.txt')).toBe('héllo\nworld\n');
    expect(textOf(result)).toBe('Created deep/er/new.txt: wrote 13 bytes, 2 lines.');
  });

  it('overwrites an existing file and says so', async () => {
    const runtime = await runtimeWith({ 'x.txt': 'old content that is long' });
    const result = await createWriteTool(runtime).execute('id', { path: 'x.txt', content: 'new' });
    expect(await readText(runtime, 'x.txt')).toBe('new');
    expect(textOf(result)).toContain('Overwrote x.txt');
  });

  it('writes through a symlink to its target, keeping the link', async () => {
    const runtime = await runtimeWith({ 'target.txt': 'before\n' });
    await runtime.exec('ln -s target.txt link.txt');
    await createWriteTool(runtime).execute('id', { path: 'link.txt', content: 'after\n' });
    expect(await readText(runtime, 'target.txt')).toBe('after\n');
    expect((await runtime.readdir(runtime.workdir)).find((entry) => entry.name === 'link.txt')?.type).toBe('symlink');
  });

  it('is serialized with an edit of the same file', async () => {
    const runtime = await runtimeWith({ 'y.txt': 'start\n' });
    await Promise.all([
      createWriteTool(runtime).execute('1', { path: 'y.txt', content: 'written\n' }),
      createEditTool(runtime).execute('2', { path: 'y.txt', edits: [{ oldText: 'written', newText: 'edited' }] }),
    ]);
    expect(await readText(runtime, 'y.txt')).toBe('edited\n');
  });
});
