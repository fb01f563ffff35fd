// The browser's permission to edit a picked folder. A handle kept in IndexedDB comes back after a reload without
// it, and the browser asks the person again only from a click (a user activation); so the app checks first and
// offers one click ("Allow editing my-app") when needed, calling ensurePermission(handle, { request: true }) from
// that click's handler, before anything else it awaits.
import { errorName, type FolderHandle } from './folder-handle';

export type FolderPermission = 'granted' | 'denied' | 'needs-gesture';

const READ_WRITE = { mode: 'readwrite' } as const;

/** Whether Conch may edit `handle`; asks the person only with `request`, which must come from a click handler. */
export async function ensurePermission(handle: FolderHandle, options: { request?: boolean } = {}): Promise<FolderPermission> {
  // Origin-private folders on some browsers have no permission methods: they are always the page's to edit.
  if (!handle.queryPermission) return 'granted';
  const state = await handle.queryPermission(READ_WRITE);
  if (state !== 'prompt') return state;
  if (!options.request || !handle.requestPermission) return 'needs-gesture';
  try {
    const answer = await handle.requestPermission(READ_WRITE);
    // The prompt closed without an answer: another click may ask again.
    return answer === 'prompt' ? 'needs-gesture' : answer;
  } catch (error) {
    // Called without a user activation after all (it expired, or the call did not come from a click).
    if (errorName(error) === 'SecurityError' || errorName(error) === 'NotAllowedError') return 'needs-gesture';
    throw error;
  }
}

/** What to tell the person when Conch may not edit the folder `name`, or null when it may. */
export function permissionMessage(permission: FolderPermission, name: string): string | null {
  switch (permission) {
    case 'granted':
      return null;
    case 'needs-gesture':
      return `Conch needs your permission again to edit the folder "${name}": click to allow it.`;
    case 'denied':
      return `The browser does not let Conch edit the folder "${name}". Allow it in the site settings (the icon left of the address), or open the folder again.`;
    default:
      return permission satisfies never;
  }
}
