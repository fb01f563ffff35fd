// Reading a session file for storage without freezing the page: in a Web Worker where there is one (the browser), in
// this thread otherwise (Node, tests). Either way the answer is the same: the contents with each message in its
// stored form (entry-codec.ts) and each file's blob id, or a SessionFileError naming the line.
import type { Message } from '../../../ai/types';
import { isObjectId } from '../../../runtime/object-id';
import { encodeEntry, lightMessageOf } from '../../sessions/entry-codec';
import { SessionFileError } from '../../errors';
import { importSessionFile } from './session-file';
import type { SessionFileContents } from '../../types';

/**
 * A session file ready to store: `storedEntries` are what the entries store keeps; `messages` are the same messages
 * with their large texts blanked (they count tokens and cost, they are not for showing).
 */
export type SessionFileForStorage = SessionFileContents & { storedEntries: unknown[] };

/** What the worker answers. */
export type SessionFileReply =
  | { ok: true; contents: SessionFileForStorage }
  | { ok: false; sessionFileError: boolean; message: string; line?: number; field?: string };

type WorkerLike = Pick<Worker, 'postMessage' | 'terminate'> & { onmessage: ((event: MessageEvent<SessionFileReply>) => void) | null; onerror: ((event: ErrorEvent) => void) | null };

const defaultWorker = (): WorkerLike => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'conch-session-file' });

/** The contents with each message in its stored form and the messages themselves lightened (see above). */
export function forStorage(file: SessionFileContents): SessionFileForStorage {
  const storedEntries = file.messages.map(encodeEntry);
  return { ...file, storedEntries, messages: storedEntries.map((entry) => lightMessageOf(entry) as Message) };
}

/**
 * Reads and validates a session file for storage, off the page's thread when it can; throws SessionFileError. A
 * Blob (the picked File) is read by the worker itself, so not even the file's bytes pass through the page.
 */
export async function readSessionFileForStorage(
  data: Uint8Array | Blob,
  createWorker: (() => WorkerLike) | null = typeof Worker === 'function' ? defaultWorker : null,
): Promise<SessionFileForStorage> {
  if (!createWorker) return forStorage(await importSessionFile(data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : data));
  const worker = createWorker();
  return new Promise<SessionFileForStorage>((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate();
      const reply = event.data;
      if (!reply.ok) {
        reject(reply.sessionFileError ? new SessionFileError(reply.message, { line: reply.line, field: reply.field }) : new Error(reply.message));
        return;
      }
      const problem = missingBlobId(reply.contents);
      if (problem) reject(new Error(`The session file could not be read: the reader sent ${problem} back. Reload the page and import again.`));
      else resolve(reply.contents);
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`The session file could not be read: ${event.message || 'the reader stopped'}.`));
    };
    // Bytes are copied rather than transferred (the caller keeps them); a Blob passes as a reference.
    worker.postMessage(data);
  });
}

/**
 * The first file of the worker's answer without a well-formed blob id (ids are trusted as hashed by our code from the
 * bytes, which the page does not hash again, but they must be there), or null.
 */
function missingBlobId(contents: SessionFileForStorage): string | null {
  const sides = [['workspace', contents.workspace, contents.workspaceIds], ['baseline', contents.baseline, contents.baselineIds]] as const;
  for (const [side, files, ids] of sides) {
    if (!(ids instanceof Map)) return `no blob ids for the ${side}`;
    for (const path of files?.keys() ?? []) if (!isObjectId(ids.get(path))) return `no blob id for ${side}/${path}`;
  }
  return null;
}
