// A person's own edits in the Files tab go through the same per-file queue as the agent's edit and write tools,
// so a save and an agent edit of one file never overwrite each other's work.
import { mutationQueueFor } from '../agent/mutation-queue';
import type { Runtime } from '../runtime/types';
import { resolveToolPath } from '../tools/paths';
import { canonicalPath } from '../tools/tool-support';

export const MAX_EDITABLE_BYTES = 2 * 1024 * 1024;

export type OpenedFile =
  | { kind: 'text'; path: string; text: string; size: number; editable: boolean }
  | { kind: 'binary'; path: string; size: number }
  | { kind: 'missing'; path: string };

/** Reads a workspace file for the viewer: text when it decodes as UTF-8 without NUL bytes, else binary. */
export async function openFile(runtime: Runtime, path: string): Promise<OpenedFile> {
  let bytes: Uint8Array;
  try {
    bytes = await runtime.readFile(path);
  } catch {
    return { kind: 'missing', path };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { kind: 'binary', path, size: bytes.length };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { kind: 'text', path, text, size: bytes.length, editable: bytes.length <= MAX_EDITABLE_BYTES };
  } catch {
    return { kind: 'binary', path, size: bytes.length };
  }
}

/** Saves the person's text through the runtime's shared mutation queue. */
export async function saveFile(runtime: Runtime, path: string, text: string): Promise<void> {
  // Same key and target as the agent's write and edit tools: a symlink and its target share one queue.
  const target = await canonicalPath(runtime, resolveToolPath(runtime, path));
  await mutationQueueFor(runtime).run(target, () => runtime.writeFile(target, text));
}
