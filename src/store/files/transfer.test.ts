import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore } from '../sessions/session-store';
import { snapshotOfFiles } from '../objects/trees/files';
import { exportSessionFile } from './session-file/session-file';
import { buildSessionDownload, importedTitle, importSessionIntoStore, loadSessionExport, redactSessionExport, revertChange, scanSessionExport } from './transfer';
import { assistant, call, transcript, user } from '../testing/messages';
import { diffWorkspaces } from './workspace-diff';
import { unzipToMap, zipFromFiles } from '../zip/repo-zip';
import type { FileMap, SessionRecord, SessionStore } from '../types';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
let n = 0;
const stores: SessionStore[] = [];
const fresh = () => {
  const store = createSessionStore({ prefix: `transfer-${n++}-` });
  stores.push(store);
  return store;
};
afterEach(() => stores.splice(0).forEach((s) => s.close()));

describe('session transfer', () => {
  it('exports a stored session and imports it into another browser as a new session', async () => {
    const mine = fresh();
    const { id } = await mine.createSession();
    await mine.saveSnapshot(id, 'baseline', zipFromFiles(new Map([['a.txt', enc('old\n')]])));
    await mine.saveSnapshot(id, { checkpoint: 0 }, zipFromFiles(new Map([['a.txt', enc('old\n')]])));
    for (const m of transcript(1)) await mine.appendEntry(id, m);
    await mine.saveSnapshot(id, 'latest', zipFromFiles(new Map([['a.txt', enc('new\n')]])));
    const { fileName, data } = buildSessionDownload(await loadSessionExport(mine, id));
    expect(fileName).toMatch(/^step-0-change-the-file-\d{4}-\d{2}-\d{2}\.conch\.zip$/);

    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, data);
    expect(imported.id).not.toBe(id);
    expect(imported.title).toBe('step 0: change the file (imported)');
    expect(await theirs.loadEntries(imported.id)).toEqual(transcript(1));
    const workspace = await unzipToMap((await theirs.loadSnapshot(imported.id, 'latest'))!);
    const baseline = await unzipToMap((await theirs.loadSnapshot(imported.id, 'baseline'))!);
    expect(diffWorkspaces(baseline, workspace)).toMatchObject([{ path: 'a.txt', status: 'modified', oldText: 'old\n', newText: 'new\n' }]);
    expect(await theirs.listCheckpoints(imported.id)).toEqual([0]);
    // Importing twice never overwrites: two sessions.
    await importSessionIntoStore(theirs, data);
    expect((await theirs.listSessions()).length).toBe(2);
  });

  it('an imported session is titled "(imported)" and keeps the original title and dates; older records read without them', async () => {
    const mine = fresh();
    const { id, createdAt } = await mine.createSession({ title: 'Hello.sh script' });
    await mine.appendEntry(id, user('write hello.sh'));
    const input = await loadSessionExport(mine, id);
    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, buildSessionDownload(input).data);
    expect(imported.title).toBe('Hello.sh script (imported)');
    expect(imported.importedFrom).toEqual({ title: 'Hello.sh script', createdAt, exportedAt: expect.any(Number) });
    expect(imported.importedFrom!.exportedAt).toBeGreaterThanOrEqual(createdAt);
    expect((await theirs.getSession(imported.id))?.importedFrom).toEqual(imported.importedFrom);

    // Shared on again and imported back: still one "(imported)".
    const again = await importSessionIntoStore(fresh(), buildSessionDownload(await loadSessionExport(theirs, imported.id)).data);
    expect(again.title).toBe('Hello.sh script (imported)');
    expect(again.importedFrom?.createdAt).toBe(createdAt);

    // A fork is not an import; a record from before importedFrom, or a damaged one, reads without it.
    const fork = await theirs.forkSession(imported.id, 0);
    expect(fork.session.importedFrom).toBeUndefined();
    await theirs.updateSession(imported.id, { title: 'x', importedFrom: { title: 7, createdAt: 'yesterday' } } as never);
    expect((await theirs.getSession(imported.id))?.importedFrom).toBeUndefined();
  });

  it('hashes each file of a session file once on import: the ids the reader hashed are the ones stored', async () => {
    const text = (entries: Record<string, string>): FileMap => new Map(Object.entries(entries).map(([p, t]) => [p, enc(t)]));
    const checkpoint = await snapshotOfFiles(text({ 'a.txt': 'in the workspace too', 'c.txt': 'only at checkpoint 0' }));
    const data = exportSessionFile({
      session: { id: 'x', title: 't', createdAt: 0, model: 'm', provider: 'p' },
      messages: transcript(1),
      workspace: text({ 'a.txt': 'in the workspace too', 'w.txt': 'workspace only' }),
      baseline: text({ 'b.txt': 'baseline only' }),
      snapshots: { checkpoints: new Map([[0, checkpoint.root]]), trees: checkpoint.objects.trees, blobs: checkpoint.objects.blobs },
    });
    const hashed = new Map<string, number>();
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    const spy = vi.spyOn(crypto.subtle, 'digest').mockImplementation((algorithm, framed) => {
      const bytes = framed instanceof Uint8Array ? framed : new Uint8Array(framed as ArrayBuffer);
      const nul = bytes.indexOf(0);
      if (dec(bytes.subarray(0, nul)).startsWith('blob ')) {
        const body = dec(bytes.subarray(nul + 1));
        hashed.set(body, (hashed.get(body) ?? 0) + 1);
      }
      return digest(algorithm, framed);
    });
    const store = fresh();
    let imported: SessionRecord;
    try {
      imported = await importSessionIntoStore(store, data);
    } finally {
      spy.mockRestore();
    }
    expect(Object.fromEntries(hashed)).toEqual({ 'in the workspace too': 1, 'workspace only': 1, 'baseline only': 1, 'only at checkpoint 0': 1 });
    const latest = await unzipToMap((await store.loadSnapshot(imported.id, 'latest'))!);
    expect([...latest].map(([path, bytes]) => [path, dec(bytes)])).toEqual([['a.txt', 'in the workspace too'], ['w.txt', 'workspace only']]);
    const atZero = await unzipToMap((await store.loadSnapshot(imported.id, { checkpoint: 0 }))!);
    expect(dec(atZero.get('c.txt'))).toBe('only at checkpoint 0');
    expect(dec((await unzipToMap((await store.loadSnapshot(imported.id, 'baseline'))!)).get('b.txt'))).toBe('baseline only');
  });

  it('an untitled original imports as "Untitled (imported)"; a long title stays within 200 characters', () => {
    expect(importedTitle('')).toBe('Untitled (imported)');
    expect(importedTitle('x'.repeat(300))).toHaveLength(200);
    expect(importedTitle('x'.repeat(300)).endsWith(' (imported)')).toBe(true);
  });

  it('an invalid file stores nothing', async () => {
    const store = fresh();
    await expect(importSessionIntoStore(store, enc('junk'))).rejects.toThrow(/cannot be read/);
    expect(await store.listSessions()).toEqual([]);
  });

  it('exports a session cut off mid-turn with its tool calls answered', async () => {
    const store = fresh();
    const { id } = await store.createSession();
    await store.appendEntry(id, user('go'));
    await store.appendEntry(id, assistant([call('a')]));
    const input = await loadSessionExport(store, id);
    expect(input.messages[2]).toMatchObject({ role: 'toolResult', toolCallId: 'a', isError: true });
  });

  it('redacts reviewed secrets everywhere, including inside checkpoints', async () => {
    const key = 'sk-ant-api03-0123456789abcdefghijklmnop';
    const files: FileMap = new Map([['.env', enc(`KEY=${key}\n`)]]);
    const input = {
      session: { id: 'x', title: 't', createdAt: 0, model: 'm', provider: 'p' },
      messages: [user(`use ${key}`)],
      workspace: files,
      baseline: files,
      checkpoints: new Map([[0, zipFromFiles(files)]]),
    };
    const findings = scanSessionExport(input);
    expect(findings.map((f) => f.where)).toEqual(['transcript', 'workspace', 'baseline']);
    const clean = await redactSessionExport(input, findings);
    const bytes = buildSessionDownload(clean).data;
    const { unzipSync } = await import('fflate');
    const all = Object.values(unzipSync(bytes)).map((b) => dec(b)).join('');
    const nested = dec((await unzipToMap(clean.checkpoints!.get(0)!)).get('.env'));
    expect(all + nested).not.toContain(key);
    expect(nested).toBe('KEY=[REDACTED]\n');
  });

  it('carries compactions from one browser to another, and redacts secrets the summaries repeat', async () => {
    const key = 'sk-ant-api03-0123456789abcdefghijklmnop';
    const mine = fresh();
    const { id } = await mine.createSession();
    for (const m of [user(`deploy with ${key}`), ...transcript(2)]) await mine.appendEntry(id, m);
    const entry = {
      type: 'compaction' as const, summary: `## Critical context\n- deploy key ${key}`, firstKeptSeq: 5, atSeq: 9,
      tokensBefore: 20_000, tokensAfter: 4_000, readFiles: [], modifiedFiles: ['deploy.sh'], timestamp: 5,
    };
    await mine.appendCompaction(id, entry);
    const input = await loadSessionExport(mine, id);
    expect(input.compactions).toEqual([entry]);

    const findings = scanSessionExport(input, [key]);
    expect(findings.map((f) => [f.where, f.field])).toEqual([['transcript', 'content'], ['transcript', 'compaction 0']]);
    const clean = await redactSessionExport(input, findings);
    expect(clean.compactions?.[0].summary).toBe('## Critical context\n- deploy key [REDACTED]');

    const theirs = fresh();
    const imported = await importSessionIntoStore(theirs, buildSessionDownload(clean).data);
    expect(await theirs.loadCompactions(imported.id)).toEqual([{ ...entry, summary: '## Critical context\n- deploy key [REDACTED]' }]);
    expect(await theirs.loadEntries(imported.id)).toHaveLength(9);
  });

  it('reverts one changed file to the baseline', async () => {
    const written: Record<string, string> = {};
    const removed: string[] = [];
    const runtime = {
      workdir: '/home/project',
      writeFile: async (p: string, d: Uint8Array | string) => void (written[p] = typeof d === 'string' ? d : dec(d)),
      rm: async (p: string) => void removed.push(p),
    };
    const baseline: FileMap = new Map([['a.txt', enc('old')]]);
    const changes = diffWorkspaces(baseline, new Map([['a.txt', enc('new')], ['b.txt', enc('added')]]));
    for (const change of changes) await revertChange(runtime, change, baseline);
    expect(written).toEqual({ '/home/project/a.txt': 'old' });
    expect(removed).toEqual(['/home/project/b.txt']);
  });
});
