import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { MemoryStat } from '../../memory-stat';
import { createEmbeddedRuntime } from '../../in-process';
import { IndexedListingFs } from '../indexed-listing-fs';
import { objectHasher } from '../baseline/object-hasher';
import { indexStatOf, scanWorkTree, PLAIN_MODE } from './work-tree-scan';

const encoder = new TextEncoder();

/** A file system with `/w/f` holding `text`, the scan's view of it, and an index entry staging it with its stat data. */
async function staged(text: string) {
  const memory = new InMemoryFs();
  memory.writeFileSync('/w/f', text, undefined, { mtime: new Date(1_700_000_000_123) });
  const stats = new MemoryStat(() => memory);
  const fs = new IndexedListingFs(memory);
  const entry = { path: 'f', blobId: (await objectHasher()).objectId('blob', encoder.encode(text)), mode: PLAIN_MODE, stat: indexStatOf(stats.stat('/w/f')!, stats.numbering) };
  return { memory, stats, fs, entry };
}

describe('the work tree scan', () => {
  it('sees a same-size edit in the same millisecond, by the file body token', async () => {
    const { memory, stats, fs, entry } = await staged('aaaa');
    memory.writeFileSync('/w/f', 'bbbb', undefined, { mtime: new Date(1_700_000_000_123) }); // same size, same mtime
    const scan = await scanWorkTree(fs, stats, '/w', [entry]);
    expect(scan.changes.map((change) => [change.kind, change.entry.path])).toEqual([['modified', 'f']]);
  });

  it('does not read a file whose stat data matches its entry', async () => {
    const { stats, fs, entry } = await staged('aaaa');
    let reads = 0;
    const counting = Object.assign(Object.create(fs) as IndexedListingFs, { readFileBuffer: async (path: string) => (reads++, fs.readFileBuffer(path)) });
    const scan = await scanWorkTree(counting, stats, '/w', [entry]);
    expect({ changes: scan.changes.length, reads }).toEqual({ changes: 0, reads: 0 });
  });

  it('reads a file again under another numbering (a worker fork), and finds it unchanged', async () => {
    const { memory, fs, entry } = await staged('aaaa');
    const other = new MemoryStat(() => memory);
    const scan = await scanWorkTree(fs, other, '/w', [entry]);
    expect({ changes: scan.changes.length, refreshed: scan.refreshed }).toEqual({ changes: 0, refreshed: true });
  });

  it('in the runtime: status shows an edit made right after the commit, and forks see their own edits', async () => {
    const runtime = createEmbeddedRuntime({ files: { 'a.txt': 'aaaa\n' } });
    const env = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@x', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@x' };
    await runtime.exec('git init -q && git add -A && git commit -q -m one && printf "bbbb\\n" > a.txt', { env });
    expect((await runtime.exec('git status --short')).output).toBe(' M a.txt\n');
    await runtime.exec('git add -A && git commit -q -m two', { env });
    const fork = await runtime.fork();
    await fork.runtime.exec('printf "cccc\\n" > a.txt');
    expect((await fork.runtime.exec('git status --short')).output).toBe(' M a.txt\n');
    expect((await runtime.exec('git status --short')).output).toBe('');
    await fork.dispose();
    await runtime.dispose();
  });
});
