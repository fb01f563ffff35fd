import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../../store';
import { sessionOrigin, titleParts } from './origin';

const record = (extra: Partial<SessionRecord>): SessionRecord => ({
  id: 'a', title: 'T (imported)', createdAt: 100, updatedAt: 900, model: '', provider: '', messageCount: 0, cost: 0,
  tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, checkpoints: [], ...extra,
});

describe('sessionOrigin', () => {
  it('is the original of an imported session, and nothing for one started here', () => {
    expect(sessionOrigin(record({}))).toBeNull();
    expect(sessionOrigin(record({ importedAt: 800, importedFrom: { title: 'T', createdAt: 50, exportedAt: 60 } }))).toEqual({
      title: 'T', startedAt: 50, importedAt: 800, exportedAt: 60,
    });
  });

  it('reads a session imported before importedFrom existed from its createdAt (the file header’s)', () => {
    expect(sessionOrigin(record({ importedAt: 800 }))).toEqual({ title: 'T (imported)', startedAt: 100, importedAt: 800 });
  });
});

describe('titleParts', () => {
  it('sets an imported session’s " (imported)" apart, so a cut title keeps it', () => {
    expect(titleParts(record({ importedAt: 800 }))).toEqual({ text: 'T', suffix: ' (imported)' });
  });

  it('leaves any other title whole, and names an untitled session', () => {
    expect(titleParts(record({}))).toEqual({ text: 'T (imported)', suffix: '' });
    expect(titleParts(record({ title: 'Imported notes', importedAt: 800 }))).toEqual({ text: 'Imported notes', suffix: '' });
    expect(titleParts(record({ title: '' }))).toEqual({ text: 'New session', suffix: '' });
  });
});
