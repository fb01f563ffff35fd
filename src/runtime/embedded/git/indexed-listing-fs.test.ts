import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { IndexedListingFs } from './indexed-listing-fs';

describe('IndexedListingFs', () => {
  it('lists folders as the file system does, through writes, new folders, links and removals', async () => {
    const inner = new InMemoryFs();
    inner.writeFileSync('/w/a.txt', 'a');
    inner.writeFileSync('/w/src/b.ts', 'b');
    inner.writeFileSync('/w/src/deep/c.ts', 'c');
    inner.mkdirSync('/w/empty', { recursive: true });
    const fs = new IndexedListingFs(inner);
    const same = async (path: string) => expect(await fs.readdir(path), path).toEqual(await inner.readdir(path));

    for (const path of ['/', '/w', '/w/src', '/w/src/deep', '/w/empty']) await same(path);
    await fs.writeFile('/w/src/new.ts', 'n');
    await fs.mkdir('/w/.git/objects/ab', { recursive: true });
    await fs.writeFile('/w/.git/objects/ab/cdef', 'object');
    await fs.symlink('src', '/w/link');
    for (const path of ['/w', '/w/src', '/w/.git', '/w/.git/objects', '/w/.git/objects/ab']) await same(path);
    await fs.rm('/w/src', { recursive: true });
    await fs.rm('/w/a.txt');
    for (const path of ['/w', '/w/.git/objects']) await same(path);
    await expect(fs.readdir('/w/src')).rejects.toThrow(/ENOENT/);
    await expect(fs.readdir('/w/link')).rejects.toThrow(/ENOENT/); // a link to a folder that is gone
  });

  it('sees changes made behind its back once refreshed', async () => {
    const inner = new InMemoryFs();
    inner.writeFileSync('/w/a.txt', 'a');
    const fs = new IndexedListingFs(inner);
    expect(await fs.readdir('/w')).toEqual(['a.txt']);
    inner.writeFileSync('/w/b.txt', 'b');
    fs.refresh();
    expect(await fs.readdir('/w')).toEqual(['a.txt', 'b.txt']);
  });
});
