// The session library for components deep in the tree (a transcript message's fork action), without threading it
// through every component in between. The getter keeps it reactive: the library loads after the page mounts.
import { getContext, setContext } from 'svelte';
import type { SessionLibrary } from '../../app/library/library.svelte';

const KEY = Symbol('conch-session-library');

export function provideLibrary(get: () => SessionLibrary | null): void {
  setContext(KEY, get);
}

/** The library getter, or a getter of null outside the app (component tests). */
export function useLibrary(): () => SessionLibrary | null {
  return getContext<(() => SessionLibrary | null) | undefined>(KEY) ?? (() => null);
}
