// Boots the page's one WebContainer. WebContainer.boot() may run once per page (a second call throws), and Vite's
// hot reload re-runs modules, so the boot promise lives on globalThis. Load this module with a dynamic import: it
// pulls in @webcontainer/api, which the embedded-only page never needs.

import type { BootOptions, WebContainer } from '@webcontainer/api';
import { COEP } from '../cross-origin-isolation';
import { createWebContainerRuntime, type WebContainerRuntime, type WebContainerRuntimeOptions } from './webcontainer';
import type { WebContainerLike } from './webcontainer-like';

export type BootWebContainerOptions = {
  /** Must match the page's Cross-Origin-Embedder-Policy header; default COEP (cross-origin-isolation.ts). */
  coep?: NonNullable<BootOptions['coep']>;
  /** The workspace folder name: /home/<workdirName>. Default 'project', like the embedded runtime. */
  workdirName?: string;
  /** Forward preview errors as 'preview-message' events (default true). */
  forwardPreviewErrors?: BootOptions['forwardPreviewErrors'];
};

export type WebContainerModule = { WebContainer: { boot(options: BootOptions): Promise<WebContainerLike> } };

const BOOT_KEY = Symbol.for('conch.webcontainer.boot');
type BootCache = { [BOOT_KEY]?: Promise<WebContainerLike> };

const loadApi = (): Promise<WebContainerModule> =>
  import('@webcontainer/api').then((api) => ({ WebContainer: api.WebContainer as { boot(o: BootOptions): Promise<WebContainer> } }));

/**
 * The page's WebContainer, booting it on the first call; later calls (and hot reloads) get the same promise, even
 * while it is still pending. A failed boot is forgotten so a later call may try again.
 */
export function bootWebContainer(
  options: BootWebContainerOptions = {},
  load: () => Promise<WebContainerModule> = loadApi,
): Promise<WebContainerLike> {
  const cache = globalThis as BootCache;
  const existing = cache[BOOT_KEY];
  if (existing) return existing;
  const booting = load().then(({ WebContainer }) =>
    WebContainer.boot({
      coep: options.coep ?? COEP,
      workdirName: options.workdirName ?? 'project',
      forwardPreviewErrors: options.forwardPreviewErrors ?? true,
    }),
  );
  cache[BOOT_KEY] = booting;
  booting.catch(() => {
    if (cache[BOOT_KEY] === booting) delete cache[BOOT_KEY];
  });
  return booting;
}

/**
 * Boots (or reuses) the page's WebContainer and wraps it as a Runtime; the probe for how to run commands starts at
 * once (the first command waits for it).
 */
export async function bootWebContainerRuntime(
  options: BootWebContainerOptions & WebContainerRuntimeOptions = {},
  load?: () => Promise<WebContainerModule>,
): Promise<WebContainerRuntime> {
  const runtime = createWebContainerRuntime(await bootWebContainer(options, load), options);
  void runtime.execStrategy();
  return runtime;
}

/** Forgets the cached boot (tests only: a real page cannot boot twice). */
export function forgetWebContainerBootForTests(): void {
  delete (globalThis as BootCache)[BOOT_KEY];
}
