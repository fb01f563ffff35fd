// The page's sandbox boot: RuntimeBoot wired to the real runtimes (the embedded one in a Web Worker, WebContainer
// from StackBlitz), its state mirrored into the top bar, and WebContainer's preview events into the Preview tab.
import type { Runtime } from '../runtime/types';
import type { NpmEnvironment } from '../runtime/embedded/npm/environment';
import type { AppState, BootView } from './app.svelte';
import { watchContainerErrors, type ContainerErrorSource } from './boot/container-errors';
import { RuntimeBoot, type BootState } from './boot/runtime-boot';
import type { Settings } from './settings/settings';
import { mayAutoBootWebContainer } from './boot/webcontainer-device';

/** Creates the `bootRuntime` option of AppState: the first call boots, later calls switch to WebContainer. */
export function createBrowserBoot(
  timeoutMs?: number,
): (app: AppState, preference: Settings['runtimePreference']) => Promise<Runtime | null> {
  let machine: RuntimeBoot | undefined;
  let detachPreview: (() => void) | undefined;
  let nodeEngine: BootView['nodeEngine'];

  const adopt = (app: AppState, runtime: Runtime): Runtime => {
    detachPreview?.();
    detachPreview = undefined;
    if (hasContainer(runtime)) {
      const stopPreview = app.preview.attach(runtime.container);
      const stopErrors = watchContainerErrors(runtime.container, (notice) => (app.notice = notice));
      detachPreview = () => {
        stopPreview();
        stopErrors();
      };
    }
    return runtime;
  };

  return async (app, preference) => {
    if (machine) {
      const switched = await machine.retryWebContainer();
      return switched ? adopt(app, switched.runtime) : null;
    }
    machine = new RuntimeBoot({
      timeoutMs,
      autoBootWebContainer: mayAutoBootWebContainer(globalThis.navigator),
      bootWebContainer: async () => (await import('../runtime/webcontainer/boot')).bootWebContainerRuntime(),
      createEmbedded: async () => {
        // node's browser engine: the frame is made and probed while the runtime's worker starts.
        const { openNodeSandboxFrame } = await import('./boot/node-sandbox/sandbox-frame');
        const nodeSandbox = openNodeSandboxFrame(document, (verdict) => {
          nodeEngine = { engine: verdict.ok ? 'browser' : 'quickjs', reason: verdict.reason };
          app.setBoot({ ...app.boot, nodeEngine });
        });
        return (await import('../runtime/embedded/client')).createEmbeddedRuntimeInWorker({ npm: await pageNpm(app), gitPush: app.gitPush, nodeSandbox });
      },
    });
    machine.subscribe((state) => {
      app.setBoot({ ...bootView(state), nodeEngine });
      // A WebContainer that came up late is taken at once while nothing has happened in the session yet.
      if (state.state === 'ready' && state.webContainerStandby && isPristine(app)) void app.retryWebContainer();
    });
    // The stored session is read and painted first; the sandbox's start-up work (the embedded runtime's worker,
    // WebContainer's frame) would compete with both for the CPU.
    await app.sessionShown();
    await nextPaint();
    try {
      return adopt(app, (await machine.boot(preference)).runtime);
    } catch {
      return null; // the failed state, with its reason, is already on screen
    }
  };
}

/** npm's registry (the person's setting, read at each install) and its tarball cache in IndexedDB. */
async function pageNpm(app: AppState): Promise<NpmEnvironment> {
  const { createPackageCache } = await import('../store');
  return { registry: () => app.settings.npmRegistry, cache: createPackageCache() };
}

/** Resolves after the next frame has been produced (rendering what is in the DOM now). */
function nextPaint(): Promise<void> {
  return new Promise((resolve) => {
    // A hidden tab produces no frames; nothing is painted there to wait for.
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') return resolve();
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}

function bootView(state: BootState): BootView {
  switch (state.state) {
    case 'booting':
      return { state: 'booting', kind: null, detail: state.kind === 'webcontainer' ? 'starting WebContainer' : '', canRetryWebContainer: false };
    case 'ready':
      return {
        state: 'ready',
        kind: state.kind,
        detail: state.notice ?? '',
        canRetryWebContainer: state.canRetryWebContainer,
        retryLabel: state.reason === 'on-request' ? 'Start WebContainer' : undefined,
      };
    case 'failed':
      return { state: 'failed', kind: state.kind, detail: state.message, canRetryWebContainer: state.canRetryWebContainer };
  }
}

function isPristine(app: AppState): boolean {
  const session = app.current;
  return !session || (session.messages.length === 0 && !session.running);
}

function hasContainer(
  runtime: Runtime,
): runtime is Runtime & { container: Parameters<AppState['preview']['attach']>[0] & ContainerErrorSource } {
  return runtime.kind === 'webcontainer' && 'container' in runtime;
}
