// The browser's folder picker, declared with the core's FolderHandle: a FileSystemDirectoryHandle has that shape
// (and so has an origin-private folder, which tests hand back in its place).
import type { FolderHandle } from '../../../remote';

declare global {
  interface Window {
    showDirectoryPicker?: (options?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FolderHandle>;
  }
}

/** Asks the person for a folder to edit; null when this browser has no File System Access API (Firefox, Safari). */
export function browserFolderPicker(): (() => Promise<FolderHandle>) | null {
  if (typeof window === 'undefined' || typeof window.showDirectoryPicker !== 'function') return null;
  const pick = window.showDirectoryPicker.bind(window);
  return () => pick({ mode: 'readwrite' });
}

/** Whether `error` is the person closing the picker without choosing. */
export function isPickerDismissed(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
