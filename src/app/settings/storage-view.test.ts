import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionStore, snapshotOfFiles, type SessionStore } from '../../store';
import { KEPT_CHECKPOINTS, StorageView } from './storage-view.svelte';

const enc = (s: string) => new TextEncoder().encode(s);
const stores: SessionStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));

describe('StorageView', () => {
  it('lists what each session holds, and frees a session\'s old checkpoints only once the person confirms', async () => {
    const store = createSessionStore({ prefix: 'storage-view-', collectAfterMs: 60_000 });
    stores.push(store);
    const big = await store.createSession({ title: 'Big one' });
    const small = await store.createSession({ title: 'Small one' });
    for (let seq = 0; seq < 6; seq++) {
      const files = new Map([['data.bin', enc(String(seq).repeat(10_000))]]);
      await store.commitSnapshot(big.id, { checkpoint: seq * 4 }, await snapshotOfFiles(files));
    }
    await store.commitSnapshot(small.id, 'latest', await snapshotOfFiles(new Map([['a.txt', enc('a')]])));
    const view = new StorageView(store);
    await view.load();
    expect(view.sessions?.map((s) => s.title)).toEqual(['Big one', 'Small one']);
    expect(view.sessions?.[0]).toMatchObject({ checkpoints: 6 });
    expect(view.sessions![0].uniqueBytes).toBeGreaterThan(60_000);

    view.askToFree(small.id); // nothing to drop there
    expect(view.pending).toBeNull();
    view.askToFree(big.id);
    expect(view.pending).toEqual({ id: big.id, title: 'Big one', dropping: 6 - KEPT_CHECKPOINTS });
    view.cancel();
    expect(await store.listCheckpoints(big.id)).toHaveLength(6);

    view.askToFree(big.id);
    await view.confirm();
    expect(await store.listCheckpoints(big.id)).toEqual([12, 16, 20]);
    expect(view.result).toMatch(/Dropped 3 old checkpoints of “Big one”, freeing 29\.\d KB/);
    expect(view.sessions![0].uniqueBytes).toBeLessThan(31_000);
  });
});
