// What the repos tests share: a session library over a fresh store and an embedded runtime, as the page wires it,
// with a controller whose model answers `reply` (the repos flows never need more from it).
import { createScriptedStreamFn } from '../../../ai/providers/scripted';
import { testModel } from '../../../ai/testing/test-model';
import { createEmbeddedRuntime } from '../../../runtime/embedded';
import type { GitPushHost } from '../../../runtime/types';
import { Workspace } from '../../../runtime/workspace/workspace';
import { createSessionStore, openSessionEvents } from '../../../store';
import { createCodingTools } from '../../../tools';
import { SessionLibrary, type SessionHost } from '../../library/library.svelte';
import { SessionController } from '../../session/controller.svelte';
import type { Settings } from '../../settings/settings';

/** A started library under `prefix` reading `settings`; `cleanups` gets what stops it; `gitPush` answers the shell's git push. */
export async function startTestLibrary(settings: Settings, prefix: string, cleanups: (() => void)[], reply = 'ok', gitPush?: GitPushHost) {
  const runtime = await createEmbeddedRuntime({ gitPush });
  const workspace = new Workspace();
  workspace.attach(runtime);
  const model = testModel({ provider: 'mock', id: 'mock-model' });
  const host: SessionHost = {
    workspace,
    createController: (init) =>
      new SessionController({ ...init, workspace, tools: createCodingTools(workspace), getSettings: () => settings, resolveModel: () => model, streamFn: createScriptedStreamFn([{ content: reply }]), scheduleUpdate: (fn) => queueMicrotask(fn) }),
  };
  const store = createSessionStore({ prefix });
  const library = new SessionLibrary({ store, host, events: openSessionEvents(`test-${prefix}`), acquireLock: async () => ({ release() {} }) });
  cleanups.push(() => { library.stop(); store.close(); });
  await library.start();
  return { library, runtime, store, workspace };
}
