// A session's local folder as kept in IndexedDB: the directory handle (structured-cloned, permission not included)
// and the sync record, checked where it is read back.
import { parseFolderSync, type FolderHandle, type FolderSync } from '../../../remote';
import type { SessionStore } from '../../../store';

export type FolderLink = { handle: FolderHandle; sync: FolderSync };

/** The folder linked to session `id`, or null when there is none (or what is stored is damaged: it is dropped). */
export async function loadFolderLink(store: Pick<SessionStore, 'loadFolderLink' | 'saveFolderLink'>, id: string): Promise<FolderLink | null> {
  const stored = await store.loadFolderLink(id);
  if (stored === undefined) return null;
  try {
    if (!isRecord(stored) || !isHandle(stored.handle)) throw new Error('not a folder handle');
    return { handle: stored.handle, sync: parseFolderSync(stored.sync) };
  } catch {
    await store.saveFolderLink(id, undefined);
    return null;
  }
}

/** Stores `link` for session `id`, replacing the one before. */
export function saveFolderLink(store: Pick<SessionStore, 'saveFolderLink'>, id: string, link: FolderLink): Promise<void> {
  return store.saveFolderLink(id, { handle: link.handle, sync: link.sync });
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isHandle(value: unknown): value is FolderHandle {
  return isRecord(value) && value.kind === 'directory' && typeof value.name === 'string' && typeof value.getFileHandle === 'function';
}
