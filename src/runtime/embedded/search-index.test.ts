import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { SearchIndex } from './search-index';

describe('SearchIndex', () => {
  it('keeps its tree until invalidated, then indexes the file system as it is now', async () => {
    const memory = new InMemoryFs();
    memory.writeFileSync('/a.txt', 'a');
    const index = new SearchIndex(() => memory);
    const first = await index.current();
    expect(first?.typeOf('/a.txt')).toBe('file');
    memory.writeFileSync('/b.txt', 'b');
    expect(await index.current()).toBe(first);
    index.invalidate();
    const second = await index.current();
    expect(second).not.toBe(first);
    expect(second?.typeOf('/b.txt')).toBe('file');
  });

  it('answers with a build that a change overtook, but does not keep it', async () => {
    const memory = new InMemoryFs();
    const index = new SearchIndex(() => memory);
    const pending = index.current();
    index.invalidate();
    const overtaken = await pending;
    expect(overtaken).not.toBeNull();
    expect(await index.current()).not.toBe(overtaken);
  });

  it('indexes whichever file system it is handed at the time', async () => {
    let memory = new InMemoryFs();
    const index = new SearchIndex(() => memory);
    await index.current();
    memory = new InMemoryFs();
    memory.writeFileSync('/swapped.txt', 's');
    index.invalidate();
    expect((await index.current())?.typeOf('/swapped.txt')).toBe('file');
  });
});
