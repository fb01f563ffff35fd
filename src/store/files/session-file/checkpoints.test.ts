import 'fake-indexeddb/auto';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionFileError } from '../../errors';
import { importSessionFile } from './session-file';
import { createSessionStore } from '../../sessions/session-store';
import { buildSessionDownload, importSessionIntoStore, loadSessionExport, redactSessionExport, scanSessionExport } from '../transfer';
import { transcript, user } from '../../testing/messages';
import { snapshotOfFiles } from '../../objects/trees/files';
import type { SessionStore } from '../../types';
import { unzipToMap } from '../../zip/repo-zip';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, enc(t)]));

let n = 0;
const stores: SessionStore[] = [];
const fresh = () => {
  const store = createSessionStore({ prefix: `file-snapshots-${n++}-`, collectAfterMs: 60_000 });
  stores.push(store);
  return store;
};
afterEach(() => stores.splice(0).forEach((s) => s.close()));

const BIG = 'x'.repeat(20_000);

/** A stored session: a baseline, checkpoints at its three user messages (0, 4, 8), and the latest workspace. */
async function storedSession(store: SessionStore) {
  const { id } = await store.createSession();
  for (const m of transcript(3)) await store.appendEntry(id, m);
  const commit = async (ref: Parameters<SessionStore['commitSnapshot']>[1], contents: Record<string, string>) =>
    store.commitSnapshot(id, ref, await snapshotOfFiles(files(contents)));
  await commit('baseline', { 'big.txt': BIG, 'a.txt': 'v0' });
  await commit({ checkpoint: 0 }, { 'big.txt': BIG, 'a.txt': 'v0' });
  await commit({ checkpoint: 4 }, { 'big.txt': BIG, 'a.txt': 'v1', 'only-at-4.txt': 'gone later' });
  await commit({ checkpoint: 8 }, { 'big.txt': BIG, 'a.txt': 'v2' });
  await commit('latest', { 'big.txt': BIG, 'a.txt': 'v3' });
  return id;
}

describe('checkpoints in a session file', () => {
  it('hold each file once, and import as the same checkpoints', async () => {
    const mine = fresh();
    const id = await storedSession(mine);
    const { data } = buildSessionDownload(await loadSessionExport(mine, id));
    const entries = unzipSync(data);
    const names = Object.keys(entries);
    expect(names.filter((p) => p.startsWith('checkpoints/'))).toEqual([]);
    expect(names).toContain('snapshots/checkpoints.json');
    // big.txt is in every snapshot and under workspace/ and baseline/: no blob entry repeats it.
    const blobs = names.filter((p) => p.startsWith('snapshots/blobs/')).map((p) => dec(entries[p]));
    expect(blobs.sort()).toEqual(['gone later', 'v1', 'v2']);
    expect(Object.values(entries).filter((d) => dec(d) === BIG)).toHaveLength(2); // workspace/big.txt and baseline/big.txt

    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, data);
    expect(await theirs.listCheckpoints(imported.id)).toEqual([0, 4, 8]);
    for (const seq of [0, 4, 8]) {
      const back = await unzipToMap((await theirs.loadSnapshot(imported.id, { checkpoint: seq }))!);
      const original = await unzipToMap((await mine.loadSnapshot(id, { checkpoint: seq }))!);
      expect(back).toEqual(original);
    }
    expect(dec((await unzipToMap((await theirs.loadSnapshot(imported.id, 'latest'))!)).get('a.txt'))).toBe('v3');
  });

  it('are checked on import: a file that does not match its name, a missing folder or file, a checkpoint off a user message', async () => {
    const mine = fresh();
    const { data } = buildSessionDownload(await loadSessionExport(mine, await storedSession(mine)));
    const entries = unzipSync(data);
    const blob = Object.keys(entries).find((p) => p.startsWith('snapshots/blobs/'))!;
    const tree = Object.keys(entries).find((p) => p.startsWith('snapshots/trees/'))!;
    const failure = async (changed: Record<string, Uint8Array | undefined>) => {
      const next = { ...entries, ...changed };
      for (const [k, v] of Object.entries(changed)) if (v === undefined) delete next[k];
      const error = await importSessionFile(zipSync(next as Record<string, Uint8Array>)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionFileError);
      return (error as Error).message;
    };
    expect(await failure({ [blob]: enc('tampered') })).toMatch(new RegExp(`${blob} is unusable: its content does not match its name`));
    expect(await failure({ [blob]: undefined })).toMatch(/refers to file .* which is not in the session file/);
    expect(await failure({ [tree]: undefined })).toMatch(/refers to folder .* which is not in the session file/);
    const index = JSON.parse(dec(entries['snapshots/checkpoints.json'])) as { checkpoints: Record<string, string> };
    const wrongSeq = { ...index, checkpoints: { '3': index.checkpoints['0'] } };
    expect(await failure({ 'snapshots/checkpoints.json': strToU8(JSON.stringify(wrongSeq)) })).toMatch(/checkpoint "3" must be the seq of a user message/);
    expect(await failure({ 'snapshots/checkpoints.json': strToU8('{') })).toMatch(/not JSON/);
  });

  it('are redacted by value like the old checkpoint zips, the folders above a redacted file made new', async () => {
    const store = fresh();
    const { id } = await store.createSession();
    const key = 'sk-ant-api03-0123456789abcdefghijklmnop';
    await store.appendEntry(id, user(`use ${key}`));
    await store.commitSnapshot(id, { checkpoint: 0 }, await snapshotOfFiles(files({ 'config/.env': `KEY=${key}\n`, 'keep.txt': 'k' })));
    await store.commitSnapshot(id, 'latest', await snapshotOfFiles(files({ 'keep.txt': 'k' })));
    const input = await loadSessionExport(store, id);
    const clean = await redactSessionExport(input, [...scanSessionExport(input, [key])]);
    const { data } = buildSessionDownload(clean);
    const written = unzipSync(data);
    // (The title, taken from the first prompt, is redacted by the app's export, not here.)
    expect(Object.entries(written).filter(([p]) => p !== 'session.jsonl').map(([, d]) => dec(d)).join('')).not.toContain(key);
    expect(dec(written['session.jsonl']).split('\n').slice(1).join('\n')).not.toContain(key);
    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, data);
    const back = await unzipToMap((await theirs.loadSnapshot(imported.id, { checkpoint: 0 }))!);
    expect(dec(back.get('config/.env'))).toBe('KEY=[REDACTED]\n');
    expect(dec(back.get('keep.txt'))).toBe('k');
  });
});
