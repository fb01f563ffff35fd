import { describe, expect, it } from 'vitest';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { RootListing } from './root-listing';

describe('RootListing', () => {
  it('lists the root once, and again only after a change at the top level or under a new name', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'README.md': '#', 'src/a.ts': '1' } });
    let listings = 0;
    const readdir = runtime.readdir.bind(runtime);
    runtime.readdir = (path) => {
      listings++;
      return readdir(path);
    };
    const workspace = Workspace.of(runtime);
    const listing = new RootListing(workspace);
    expect(await listing.current()).toEqual(['README.md', 'src/']);
    await workspace.writeFile('src/a.ts', '2');
    await listing.current();
    expect(listings).toBe(1);

    await workspace.writeFile('lib/b.ts', '3');
    expect(await listing.current()).toEqual(['lib/', 'README.md', 'src/']);
    await runtime.exec('rm README.md');
    expect(await listing.current()).toEqual(['lib/', 'src/']);
    expect(listings).toBe(3);
  });
});
