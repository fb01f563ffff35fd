import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { BLOB_CHARS, decodeEntry, encodeEntry, LARGE_TEXT_CHARS } from './entry-codec';
import { createSessionStore } from './session-store';

describe('entry codec', () => {
  it('keeps ordinary messages as they are', () => {
    const message = { role: 'user', content: 'hello', timestamp: 1 };
    expect(encodeEntry(message)).toBe(message);
  });

  it('moves large texts into Blobs and brings them back, leaving the message untouched', async () => {
    const big = 'A'.repeat(LARGE_TEXT_CHARS + 1);
    // Cut into several Blobs, one cut falling inside a surrogate pair.
    const huge = `${'b'.repeat(BLOB_CHARS - 2)}😀${'c'.repeat(BLOB_CHARS)}`;
    const message = {
      role: 'toolResult', toolCallId: 't', toolName: 'read', isError: false, timestamp: 2,
      content: [{ type: 'text', text: 'small' }, { type: 'text', text: big }, { type: 'text', text: `é${huge}` }],
    };
    const stored = encodeEntry(message) as { texts: { blobs: Blob[] }[]; message: { content: { text: string }[] } };
    expect(stored.texts.map((t) => t.blobs.length)).toEqual([1, 2]);
    expect(stored.message.content.map((c) => c.text.length)).toEqual([5, 0, 0]);
    expect(message.content[1].text).toBe(big);
    // Through a structured clone, as IndexedDB keeps it.
    expect(await decodeEntry(structuredClone(stored))).toEqual(message);
  });
});

describe('entries in the store', () => {
  it('a session with a large message reads back whole, from a fresh store too', async () => {
    const store = createSessionStore({ prefix: `codec-${Date.now()}-` });
    const big = 'line of a pasted log\n'.repeat(20_000);
    const session = await store.createSession();
    await store.appendEntry(session.id, { role: 'user', content: big, timestamp: 1 });
    const record = await store.importSession({ title: 'imported', model: 'm', provider: 'p', messages: [{ role: 'user', content: `x${big}`, timestamp: 2 }] });
    expect(await store.loadEntries(session.id)).toEqual([{ role: 'user', content: big, timestamp: 1 }]);
    expect((await store.loadEntries(record.id))[0]).toMatchObject({ content: `x${big}` });
    store.close();
  });
});
