import { describe, expect, it } from 'vitest';
import { gitBlobId } from '../../../runtime/object-id';
import { transcript } from '../../testing/messages';
import { forStorage, readSessionFileForStorage, type SessionFileForStorage, type SessionFileReply } from './reader';
import { exportSessionFile, importSessionFile } from './session-file';

const enc = (s: string) => new TextEncoder().encode(s);
const sessionFile = () =>
  exportSessionFile({
    session: { id: 'x', title: 't', createdAt: 0, model: 'm', provider: 'p' },
    messages: transcript(1),
    workspace: new Map([['a.txt', enc('a')], ['src/b.ts', enc('b')]]),
    baseline: new Map([['a.txt', enc('old a')]]),
  });

/** A stand-in for the worker: reads the file as worker.ts does, and lets `edit` change its answer before it is sent. */
function fakeWorker(edit: (contents: SessionFileForStorage) => void = () => undefined) {
  const worker = {
    onmessage: null as ((event: MessageEvent<SessionFileReply>) => void) | null,
    onerror: null as ((event: ErrorEvent) => void) | null,
    terminate: () => undefined,
    postMessage: async (data: Uint8Array) => {
      const contents = forStorage(await importSessionFile(data));
      edit(contents);
      worker.onmessage?.({ data: { ok: true, contents } } as MessageEvent<SessionFileReply>);
    },
  };
  return () => worker;
}

describe('readSessionFileForStorage', () => {
  it("passes on the blob ids the worker hashed from each file's bytes", async () => {
    const file = await readSessionFileForStorage(sessionFile(), fakeWorker());
    expect(file.workspaceIds).toEqual(new Map([['a.txt', await gitBlobId(enc('a'))], ['src/b.ts', await gitBlobId(enc('b'))]]));
    expect(file.baselineIds).toEqual(new Map([['a.txt', await gitBlobId(enc('old a'))]]));
  });

  it('refuses an answer in which a file has no well-formed blob id', async () => {
    const missing = fakeWorker((contents) => contents.workspaceIds.delete('src/b.ts'));
    await expect(readSessionFileForStorage(sessionFile(), missing)).rejects.toThrow(/no blob id for workspace\/src\/b\.ts/);
    const malformed = fakeWorker((contents) => contents.baselineIds.set('a.txt', 'not an id'));
    await expect(readSessionFileForStorage(sessionFile(), malformed)).rejects.toThrow(/no blob id for baseline\/a\.txt/);
    const none = fakeWorker((contents) => Object.assign(contents, { workspaceIds: undefined }));
    await expect(readSessionFileForStorage(sessionFile(), none)).rejects.toThrow(/no blob ids for the workspace/);
  });
});
