// A person's own edits in the Files tab. A save takes the workspace's per-file queue like the agent's edit and write
// tools, so the two never interleave; and since the person edited the file as it was when they opened it, a save
// puts their changes on top of whatever the agent wrote meanwhile (a three-way merge), rather than over it.
import type { Workspace } from '../../runtime/workspace/workspace';

export const MAX_EDITABLE_BYTES = 2 * 1024 * 1024;

export type OpenedFile =
  | { kind: 'text'; path: string; text: string; size: number; editable: boolean }
  | { kind: 'binary'; path: string; size: number }
  | { kind: 'missing'; path: string };

/** What a save did: wrote the person's text as is, or merged it with changes made since the file was opened. */
export type SavedFile = { text: string; merged: boolean };

/** The file changed since it was opened, in the same lines the person changed: nothing was written. */
export class SaveConflictError extends Error {
  constructor(path: string) {
    super(
      `${path} was changed by someone else (the agent?) in the same lines you edited, so your save was not written. ` +
        'Your text is still in the editor: Reload to see the file as it is now, or Overwrite to replace it with yours.',
    );
  }
}

/** Reads a workspace file for the viewer: text when it decodes as UTF-8 without NUL bytes, else binary. */
export async function openFile(workspace: Workspace, path: string): Promise<OpenedFile> {
  let bytes: Uint8Array;
  try {
    bytes = await workspace.readFile(path);
  } catch {
    return { kind: 'missing', path };
  }
  const text = decodeText(bytes);
  if (text === null) return { kind: 'binary', path, size: bytes.length };
  return { kind: 'text', path, text, size: bytes.length, editable: bytes.length <= MAX_EDITABLE_BYTES };
}

/**
 * Saves the person's `text` in the file's turn of the workspace queue. With `base` (the text the editor opened) a
 * file changed meanwhile gets the person's changes merged onto it; changes in the same lines throw
 * SaveConflictError and write nothing. Without `base` (an explicit overwrite) the text replaces the file.
 */
export async function saveFile(workspace: Workspace, path: string, text: string, base?: string): Promise<SavedFile> {
  return workspace.mutate(path, async (target, runtime) => {
    const current = base === undefined ? null : await readCurrent(runtime, target);
    if (current === null || current === base || current === text) {
      await runtime.writeFile(target, text);
      return { text, merged: false };
    }
    const merged = await mergeOnto(current, base ?? '', text);
    if (merged === null) throw new SaveConflictError(path);
    await runtime.writeFile(target, merged);
    return { text: merged, merged: true };
  });
}

/** `mine` (an edit of `base`) applied onto `theirs` (another edit of `base`); null when the two touch the same lines. */
export async function mergeOnto(theirs: string, base: string, mine: string): Promise<string | null> {
  const { applyPatch, structuredPatch } = await import('diff'); // only when a save meets another change
  const patch = structuredPatch('file', 'file', base, mine, undefined, undefined, { context: 1 });
  const result = applyPatch(theirs, patch);
  return result === false ? null : result;
}

async function readCurrent(runtime: Pick<Workspace, 'readFile'>, target: string): Promise<string | null> {
  try {
    return decodeText(await runtime.readFile(target));
  } catch {
    return null; // deleted meanwhile: the save brings it back
  }
}

/** `bytes` as UTF-8 text, or null for a binary file (a NUL byte early on, or bytes that are not UTF-8). */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.subarray(0, 8192).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
