import { describe, expect, it } from 'vitest';
import { createEditTool, type EditDetails } from './edit';
import { errorOf, readText, runtimeWith, textOf } from '../testing/tool-kit';

describe('edit tool', () => {
  it('applies several edits and reports a diff', async () => {
    const runtime = await runtimeWith({ 'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const result = await createEditTool(runtime).execute('id', {
      path: 'a.ts',
      edits: [
        { oldText: 'const c = 3;', newText: 'const c = 30;' },
        { oldText: 'const a = 1;', newText: 'const a = 10;' },
      ],
    });
    expect(await readText(runtime, 'a.ts')).toBe('const a = 10;\nconst b = 2;\nconst c = 30;\n');
    expect(textOf(result)).toContain('Applied 2 edits to a.ts');
    const details = result.details as EditDetails;
    expect(details.firstChangedLine).toBe(1);
    expect(details.diff).toContain('-const a = 1;\n+const a = 10;');
    expect(details.diff).toContain('+const c = 30;');
  });

  it('preserves CRLF line endings and a BOM', async () => {
    const runtime = await runtimeWith({ 'w.txt': '\ufeffone\r\ntwo\r\nthree\r\n' });
    await createEditTool(runtime).execute('id', { path: 'w.txt', edits: [{ oldText: 'one\ntwo', newText: 'uno\ndos' }] });
    const bytes = await runtime.readFile(`${runtime.workdir}/w.txt`);
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)).toBe('\ufeffuno\r\ndos\r\nthree\r\n');
  });

  it('writes nothing when the second edit fails, naming it', async () => {
    const original = 'alpha\nbeta\ngamma\n';
    const runtime = await runtimeWith({ 'f.txt': original });
    const message = await errorOf(createEditTool(runtime).execute('id', {
      path: 'f.txt',
      edits: [{ oldText: 'alpha', newText: 'ALPHA' }, { oldText: 'delta', newText: 'DELTA' }],
    }));
    expect(message).toContain('nothing was written');
    expect(message).toContain('edits[1]');
    expect(message).not.toContain('edits[0]');
    expect(await readText(runtime, 'f.txt')).toBe(original);
  });

  it('shows the closest region with line numbers when oldText is not found', async () => {
    const file = ['a', 'b', 'export function total(items) {', '  return items.reduce((s, x) => s + x, 0);', '}', 'c'].join('\n');
    const runtime = await runtimeWith({ 'sum.js': file });
    const message = await errorOf(createEditTool(runtime).execute('id', {
      path: 'sum.js',
      edits: [{ oldText: 'export function totl(items) {\n  return items.reduce((s, x) => s + x);', newText: '' }],
    }));
    expect(message).toContain('edits[0]: oldText was not found');
    expect(message).toContain('3| export function total(items) {');
    expect(message).toContain('4|   return items.reduce((s, x) => s + x, 0);');
  });

  it('falls back to a tolerant match and keeps trailing spaces on untouched lines', async () => {
    const runtime = await runtimeWith({ 'f.py': 'x = 1   \ndef f():  \n    return \u201cok\u201d  \ny = 2  \n' });
    const result = await createEditTool(runtime).execute('id', {
      path: 'f.py',
      edits: [{ oldText: 'def f():\n    return "ok"', newText: 'def f():\n    return "fine"' }],
    });
    // def f(): is unchanged by the edit, so it keeps its trailing spaces too.
    expect(await readText(runtime, 'f.py')).toBe('x = 1   \ndef f():  \n    return "fine"\ny = 2  \n');
    expect(textOf(result)).toContain('edits[0] matched after ignoring');
  });

  it('matches smart quotes in the file with ASCII quotes in oldText', async () => {
    const runtime = await runtimeWith({ 'q.md': 'He said \u201cstop\u201d and left.\n' });
    await createEditTool(runtime).execute('id', { path: 'q.md', edits: [{ oldText: 'said "stop"', newText: 'said "go"' }] });
    expect(await readText(runtime, 'q.md')).toBe('He said "go" and left.\n');
  });

  it('rejects a duplicate match with the line numbers', async () => {
    const runtime = await runtimeWith({ 'd.txt': 'x\nitem\ny\nitem\n' });
    const message = await errorOf(createEditTool(runtime).execute('id', { path: 'd.txt', edits: [{ oldText: 'item', newText: 'it' }] }));
    expect(message).toContain('2 occurrences of oldText (lines 2, 4)');
  });

  it('rejects overlapping edits', async () => {
    const runtime = await runtimeWith({ 'o.txt': 'one two three\n' });
    const message = await errorOf(createEditTool(runtime).execute('id', {
      path: 'o.txt',
      edits: [{ oldText: 'one two', newText: '1 2' }, { oldText: 'two three', newText: '2 3' }],
    }));
    expect(message).toContain('overlaps');
    expect(await readText(runtime, 'o.txt')).toBe('one two three\n');
  });

  it('rejects an identical replacement', async () => {
    const runtime = await runtimeWith({ 's.txt': 'same\n' });
    const message = await errorOf(createEditTool(runtime).execute('id', { path: 's.txt', edits: [{ oldText: 'same', newText: 'same' }] }));
    expect(message).toContain('identical');
  });

  it('names a missing file', async () => {
    const runtime = await runtimeWith();
    const message = await errorOf(createEditTool(runtime).execute('id', { path: 'ghost.ts', edits: [{ oldText: 'a', newText: 'b' }] }));
    expect(message).toContain('File not found: ghost.ts');
  });

  it('lands two concurrent edits of one file', async () => {
    const runtime = await runtimeWith({ 'c.txt': 'first\nsecond\n' });
    const tool = createEditTool(runtime);
    await Promise.all([
      tool.execute('1', { path: 'c.txt', edits: [{ oldText: 'first', newText: 'FIRST' }] }),
      tool.execute('2', { path: `${runtime.workdir}/./c.txt`, edits: [{ oldText: 'second', newText: 'SECOND' }] }),
    ]);
    expect(await readText(runtime, 'c.txt')).toBe('FIRST\nSECOND\n');
  });

  it('lands concurrent edits made through a symlink and its target', async () => {
    const runtime = await runtimeWith({ 'real.txt': 'left\nright\n' });
    await runtime.exec('ln -s real.txt alias.txt');
    const tool = createEditTool(runtime);
    await Promise.all([
      tool.execute('1', { path: 'real.txt', edits: [{ oldText: 'left', newText: 'LEFT' }] }),
      tool.execute('2', { path: 'alias.txt', edits: [{ oldText: 'right', newText: 'RIGHT' }] }),
    ]);
    expect(await readText(runtime, 'real.txt')).toBe('LEFT\nRIGHT\n');
  });

  it('repairs model argument quirks via prepareArguments', () => {
    const tool = createEditTool({ workdir: '/w' } as never);
    const inShape = { path: 'a', edits: [{ oldText: 'x', newText: 'y' }] };
    expect(tool.prepareArguments?.(inShape)).toBe(inShape);
    expect(tool.prepareArguments?.({ path: 'a', oldText: 'x', newText: 'y' })).toEqual(inShape);
  });
});
