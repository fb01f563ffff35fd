// The one session on screen in this tab and the page's sandbox it works in: showing a session (its workspace put into
// the sandbox, waiting for the sandbox to boot if need be), leaving it (everything stored first), and the sandbox as
// the open session may use it. The library decides which session comes on screen and when.
import { errorText } from '../../ai/messages';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { SessionController } from '../session/controller.svelte';
import type { OpenSession, SessionHost } from '../session/open-session.svelte';

/** The sandbox could not start: the page says so itself, so this is no notice of the library's. */
export class SandboxUnavailable extends Error {}

export class SessionOnScreen {
  private shown = $state.raw<OpenSession | null>(null);
  /** The last wait for the sandbox failed (the page shows why). */
  private unavailable = false;

  constructor(private readonly host: SessionHost) {}

  /** The session on screen (controller, persistence, lock), or null before one is open. */
  get session(): OpenSession | null {
    return this.shown;
  }

  /** The last wait for the sandbox failed: without a sandbox there is nothing to work in, and the page says why. */
  get sandboxUnavailable(): boolean {
    return this.unavailable;
  }

  /**
   * Puts `session` on screen, then its workspace into the sandbox; when the sandbox cannot start, nothing stays open
   * and this throws (a SandboxUnavailable when the page shows why itself).
   */
  async show(session: OpenSession): Promise<void> {
    this.shown = session;
    this.host.sessionOnScreen?.();
    try {
      await session.restoreWorkspace();
      this.unavailable = false;
    } catch (error) {
      if (this.shown === session) this.close();
      if (this.host.workspace.current) throw error;
      this.unavailable = true;
      throw new SandboxUnavailable(errorText(error));
    }
  }

  /** Closes the session on screen once everything of it is stored; throws while the agent works in it. */
  async leave(): Promise<void> {
    const current = this.current;
    if (!current) return;
    if (current.running) throw new Error('The agent is still working in this session. Stop it first, then switch.');
    await this.shown?.flush();
    this.close();
  }

  close(): void {
    this.shown?.close();
    this.shown = null;
  }

  /** The sandbox's workspace; throws a message for the person while it starts. */
  requireWorkspace(): Workspace {
    const workspace = this.host.workspace;
    if (!workspace.current) throw new Error('The sandbox is still starting; try again in a moment.');
    return workspace;
  }

  /** The workspace when the open session may change it; throws why not (none open, read-only, agent working). */
  requireWritable(): Workspace {
    const workspace = this.requireWorkspace();
    const current = this.current;
    if (!current) throw new Error('Open a session first.');
    if (this.shown?.readOnly) throw new Error('This session is open in another tab, so it is read-only here.');
    if (current.running) throw new Error('The agent is working; stop it first.');
    return workspace;
  }

  private get current(): SessionController | null {
    return this.shown?.controller ?? null;
  }
}
