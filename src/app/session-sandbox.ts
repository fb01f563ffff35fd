// The page's one sandbox as a session gets it: the session's controller works in a stand-in at once (so its transcript
// shows and a prompt can be sent while the sandbox boots), and the stand-in is handed the real sandbox once it is ready.
import { createDeferredRuntime, type DeferredRuntime, type RuntimeIdentity } from '../runtime/deferred-runtime';
import { DEFAULT_WORKDIR } from '../runtime/paths';
import type { Runtime } from '../runtime/types';
import type { SessionController } from './session-controller.svelte';
import type { SessionHost } from './session-library.svelte';

/** The sandbox could not start: the page says so itself, so this is no notice of the library's. */
export class SandboxUnavailable extends Error {}

// Both runtimes work in /home/project; a stand-in reports this until the real sandbox is handed over.
const EXPECTED_RUNTIME: RuntimeIdentity = { kind: 'embedded', workdir: DEFAULT_WORKDIR };

/** Stand-ins for the sandbox while it boots, and their hand-over once it is ready. */
export class SessionSandbox {
  /** The last wait for the sandbox failed (the page shows why). */
  unavailable = false;
  private readonly host: SessionHost;

  constructor(host: SessionHost) {
    this.host = host;
  }

  /** A runtime for a session's controller that waits for the sandbox. */
  standIn(): DeferredRuntime {
    return createDeferredRuntime(this.host.runtime ?? EXPECTED_RUNTIME);
  }

  /** The sandbox once it is ready; throws SandboxUnavailable when it could not start. */
  async ready(): Promise<Runtime> {
    try {
      const runtime = await this.host.sandbox();
      this.unavailable = false;
      return runtime;
    } catch (error) {
      this.unavailable = true;
      throw new SandboxUnavailable(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Gives `standIn` the sandbox. Were the sandbox rooted elsewhere than the stand-in said, `session`'s policy would
   * match protected paths against the wrong folder, so this returns a controller made again for the real one
   * (`session` is stopped then); null when `session` can stay.
   */
  async handOver(standIn: DeferredRuntime, runtime: Runtime, session: SessionController | null): Promise<SessionController | null> {
    const early = standIn.runtime.workdir;
    standIn.resolve(runtime);
    if (!session || runtime.workdir === early) return null;
    session.abort();
    await session.idle();
    const controller = await this.host.createController({
      id: session.id,
      title: session.title,
      createdAt: session.createdAt,
      messages: session.messages,
      runtime: standIn.runtime,
    });
    controller.draft = session.draft;
    return controller;
  }
}
