import { describe, expect, it } from 'vitest';
import { mapCallResult } from './call-result';

describe('tools/call results', () => {
  it('maps text, images, audio, resource links and embedded resources', async () => {
    const { content } = await mapCallResult({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'https://x/y', name: 'y', description: 'a thing' },
        { type: 'resource', resource: { uri: 'file:///b.png', mimeType: 'image/png', blob: 'BBBB' } },
        { type: 'resource', resource: { uri: 'file:///c.bin', mimeType: 'application/octet-stream', blob: 'CCCC' } },
        { type: 'unknown-kind', text: 'ignored' },
        'not a block',
      ],
    }, undefined);
    expect(content).toEqual([
      { type: 'text', text: 'hello\n\n[audio (audio/wav, 3 B): not passed to the model]\n\n[Resource link y: https://x/y — a thing]\n\n[Resource: file:///c.bin (application/octet-stream)] (3 B of binary data, not shown)' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'image', data: 'BBBB', mimeType: 'image/png' },
    ]);
  });

  it('gives structuredContent as JSON text only when no text came', async () => {
    expect((await mapCallResult({ content: [], structuredContent: { a: 1 } }, undefined)).text).toBe('{\n  "a": 1\n}');
    expect((await mapCallResult({ content: [{ type: 'text', text: 'summary' }], structuredContent: { a: 1 } }, undefined)).text).toBe('summary');
    expect((await mapCallResult({}, undefined)).text).toBe('(no output)');
  });

  it('cuts at 50 KB keeping the head, and says when the full text could not be saved', async () => {
    const mapped = await mapCallResult({ content: [{ type: 'text', text: `${'a'.repeat(1000)}\n`.repeat(100) }] }, async () => { throw new Error('disk full'); });
    expect(mapped.cut).toBe(true);
    expect(mapped.text).toMatch(/\n\n\[Output cut: showing lines 1-\d+ of 100\. The full output could not be saved\.\]$/);
    expect(mapped.text.length).toBeLessThan(52 * 1024);
  });
});
