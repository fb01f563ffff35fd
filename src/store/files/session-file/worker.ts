// Web Worker entry that reads and validates a session file (loaded by reader.ts with Vite's
// `new Worker(new URL(...))`): unzipping, decoding and JSON-parsing a file of tens of megabytes, hashing its files
// and preparing its large texts for storage, take seconds of work that would otherwise freeze the page. The result
// comes back by structured clone, its buffers transferred, the files' blob ids with them.
import { SessionFileError } from '../../errors';
import { importSessionFile } from './session-file';
import { forStorage, type SessionFileReply } from './reader';

type Scope = { onmessage: ((event: MessageEvent<Uint8Array | Blob>) => void) | null; postMessage(message: SessionFileReply, transfer?: Transferable[]): void };
const scope = globalThis as unknown as Scope;

scope.onmessage = async (event) => {
  try {
    const data = event.data instanceof Blob ? new Uint8Array(await event.data.arrayBuffer()) : event.data;
    const file = await importSessionFile(data);
    // Turning megabytes of text into Blobs for storage also takes seconds: done here, not on the page. The page gets
    // the Blobs (references) and not the texts themselves, which it reads back from storage when it shows them.
    const contents = forStorage(file);
    const buffers = new Set<ArrayBufferLike>();
    for (const map of [contents.workspace, contents.baseline ?? new Map(), contents.checkpoints]) {
      for (const bytes of map.values()) buffers.add(bytes.buffer);
    }
    scope.postMessage({ ok: true, contents }, [...buffers].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer));
  } catch (error) {
    const where = error instanceof SessionFileError ? { line: error.line, field: error.field } : {};
    scope.postMessage({
      ok: false,
      sessionFileError: error instanceof SessionFileError,
      message: error instanceof Error ? error.message : String(error),
      ...where,
    });
  }
};
