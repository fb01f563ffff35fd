import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../runtime/embedded';
import { createReadTool } from './read';
import { errorOf, runtimeWith, textOf } from './testing/tool-kit';

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

async function read(files: Record<string, string | Uint8Array>, args: { path: string; offset?: number; limit?: number }) {
  const runtime = await runtimeWith(files);
  return createReadTool(runtime).execute('call-1', args);
}

describe('read tool', () => {
  it('reads a file placed outside the workspace (the person\'s skills at /skills/)', async () => {
    const runtime = createEmbeddedRuntime();
    await runtime.placeReadOnly('/skills', [{ path: 'pdf/SKILL.md', data: new TextEncoder().encode('---\nname: pdf\n---\nFill forms.\n') }]);
    expect(textOf(await createReadTool(runtime).execute('call-1', { path: '/skills/pdf/SKILL.md' }))).toContain('Fill forms.');
  });

  it('returns a small file as is', async () => {
    const result = await read({ 'a.txt': 'hello\nworld\n' }, { path: 'a.txt' });
    expect(textOf(result)).toBe('hello\nworld');
  });

  it('cuts a 2500-line file at 2000 lines and says how to continue', async () => {
    const text = textOf(await read({ 'big.txt': numbered(2500) }, { path: 'big.txt' }));
    const lines = text.split('\n');
    expect(lines[0]).toBe('line 1');
    expect(lines).toContain('line 2000');
    expect(lines).not.toContain('line 2001');
    expect(text).toContain('Showing lines 1-2000 of 2500');
    expect(text).toContain('offset=2001');
  });

  it('continues from an offset to the end without a notice', async () => {
    const text = textOf(await read({ 'big.txt': numbered(2500) }, { path: 'big.txt', offset: 2001 }));
    expect(text.split('\n')[0]).toBe('line 2001');
    expect(text.endsWith('line 2500')).toBe(true);
    expect(text).not.toContain('offset=');
  });

  it('cuts long lines at the byte limit on a whole line', async () => {
    const long = Array.from({ length: 100 }, (_, i) => `${i + 1}:${'x'.repeat(1000)}`).join('\n');
    const text = textOf(await read({ 'wide.txt': long }, { path: 'wide.txt' }));
    const shown = text.split('\n\n')[0].split('\n');
    expect(shown.length).toBeGreaterThan(40);
    expect(shown.length).toBeLessThan(60);
    expect(shown.at(-1)).toMatch(/^\d+:x{1000}$/);
    expect(text).toContain(`Showing lines 1-${shown.length} of 100 (50.0 KB limit). Use offset=${shown.length + 1} to continue.`);
  });

  it('says how many lines remain when a limit stops early', async () => {
    const text = textOf(await read({ 'f.txt': numbered(50) }, { path: 'f.txt', offset: 10, limit: 5 }));
    expect(text.split('\n\n')[0]).toBe('line 10\nline 11\nline 12\nline 13\nline 14');
    expect(text).toContain('36 more lines');
    expect(text).toContain('offset=15');
  });

  it('rejects an offset past the end with the line count', async () => {
    const message = await errorOf(read({ 'f.txt': numbered(30) }, { path: 'f.txt', offset: 31 }));
    expect(message).toContain('Offset 31');
    expect(message).toContain('30 lines');
  });

  it('explains how to read a single line over the byte limit with bash', async () => {
    const text = textOf(await read({ 'min.js': `short\n${'z'.repeat(60_000)}\nafter\n` }, { path: 'min.js', offset: 2 }));
    expect(text).toContain('Line 2');
    expect(text).toContain("sed -n '2p' min.js");
    expect(text).toContain('offset=3');
    expect(text).not.toContain('zzzz');
  });

  it('returns an image by its magic bytes even with a wrong extension', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
    const result = await read({ 'picture.txt': png }, { path: 'picture.txt' });
    const image = result.content.find((block) => block.type === 'image');
    expect(image).toEqual({ type: 'image', mimeType: 'image/png', data: btoa(String.fromCharCode(...png)) });
    expect(textOf(result)).toContain('image/png');
  });

  it('recognizes JPEG, GIF and WebP', async () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2]);
    const gif = new TextEncoder().encode('GIF89a\x01\x00');
    const webp = new Uint8Array([...new TextEncoder().encode('RIFF'), 0, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8 ')]);
    const runtime = await runtimeWith({ a: jpeg, b: gif, c: webp });
    const tool = createReadTool(runtime);
    const types = [];
    for (const path of ['a', 'b', 'c']) {
      const result = await tool.execute('id', { path });
      types.push(result.content.find((block) => block.type === 'image')?.mimeType);
    }
    expect(types).toEqual(['image/jpeg', 'image/gif', 'image/webp']);
  });

  it('does not treat an image name without image bytes as an image', async () => {
    const result = await read({ 'fake.png': 'just text\n' }, { path: 'fake.png' });
    expect(result.content).toEqual([{ type: 'text', text: 'just text' }]);
  });

  it('gives a notice with the size for binary files', async () => {
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7) % 256);
    const text = textOf(await read({ 'data.bin': bytes }, { path: 'data.bin' }));
    expect(text).toContain('data.bin is a binary file (2.9 KB');
    expect(text).not.toContain('\ufffd');
  });

  it('names the path and suggests ls/find for a missing file', async () => {
    const message = await errorOf(read({}, { path: 'nope/missing.ts' }));
    expect(message).toContain('nope/missing.ts');
    expect(message).toMatch(/ls or find/);
  });

  it('reads absolute paths and strips a BOM', async () => {
    const runtime = await runtimeWith({ 'b.txt': '\ufeffhi\n' });
    const result = await createReadTool(runtime).execute('id', { path: `${runtime.workdir}/b.txt` });
    expect(textOf(result)).toBe('hi');
  });
});
