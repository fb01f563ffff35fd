// One session opened in this tab: its controller, its persistence (only in the tab that holds the session's lock;
// another tab sees it read-only), and its workspace put into the page's sandbox. The library opens and closes these;
// everything a session does while open hangs off this one object.
import type { CompactionEntry, Message, TaskEntry } from '../../ai/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { SessionLock, SessionStore } from '../../store';
import type { SessionController } from './controller.svelte';
import { openStoredSession, restoreWorkspace, SessionPersistence, type SaveState } from './persistence';
import { recoverInterruptedReply, recoverInterruptedTasks, ReplyDrafts } from './interrupted-reply';
import type { WorkspaceSnapshots } from './workspace-snapshots';

/** What an open session needs from the page: the sandbox's workspace and a controller for a transcript. */
export interface SessionHost {
  /** The page's one sandbox; its calls wait while it boots, and fail with the reason if it could not start. */
  readonly workspace: Workspace;
  /** Told when a session is on screen and now waits for the sandbox to put its workspace in. */
  sessionOnScreen?(): void;
  /** A controller for a session's transcript, working in the host's workspace with the person's settings. */
  createController(init: {
    id: string;
    title: string;
    createdAt: number;
    messages: Message[];
    compactions?: CompactionEntry[];
    tasks?: TaskEntry[];
  }): SessionController | Promise<SessionController>;
}

export type OpenSessionOptions = {
  store: SessionStore;
  host: SessionHost;
  /** The trees of the page's sandbox (one for the page, whichever session is open). */
  snapshots: WorkspaceSnapshots;
  acquireLock?: (id: string) => Promise<SessionLock | null>;
  /** Told whenever the save state changes; `error` is set while the state is 'failed'. */
  onSaveState?: (state: SaveState, error: Error | null) => void;
};

/** A session on screen in this tab. */
export class OpenSession {
  readonly id: string;
  readonly controller: SessionController;
  /** True when another tab has this session: it is shown, but nothing can be sent or changed. */
  readonly readOnly: boolean;
  /** Whether the store could keep it (false: IndexedDB refused; it lasts until the page closes). */
  readonly saved: boolean;
  saveState = $state<SaveState>('saved');

  private readonly store: SessionStore;
  private readonly workspace: Workspace;
  private readonly snapshots: WorkspaceSnapshots;
  private readonly persistence: SessionPersistence | null;
  private readonly stopDrafts: (() => void) | null = null;
  private readonly stopFlushOnHide: (() => void) | null = null;
  private lock: SessionLock | null;

  private constructor(init: {
    id: string;
    controller: SessionController;
    store: SessionStore;
    workspace: Workspace;
    snapshots: WorkspaceSnapshots;
    lock: SessionLock | null;
    saved: boolean;
    onSaveState?: OpenSessionOptions['onSaveState'];
  }) {
    this.id = init.id;
    this.controller = init.controller;
    this.store = init.store;
    this.workspace = init.workspace;
    this.snapshots = init.snapshots;
    this.lock = init.lock;
    this.saved = init.saved;
    this.readOnly = init.saved && !init.lock;
    this.persistence = init.lock
      ? new SessionPersistence({
          store: init.store,
          workspace: init.workspace,
          snapshots: init.snapshots,
          sessionId: init.id,
          onStateChange: (state, error) => {
            this.saveState = state;
            init.onSaveState?.(state, error);
          },
        })
      : null;
    this.persistence?.attach(init.controller);
    if (this.persistence) {
      const persistence = this.persistence;
      const drafts = new ReplyDrafts({ store: init.store, sessionId: init.id, afterWrites: (job) => persistence.afterWrites(job) });
      this.stopDrafts = drafts.attach(init.controller);
      // A running subagent's latest change waits for its throttle: the page going away writes it now.
      if (typeof window !== 'undefined') {
        const hide = () => void persistence.flush();
        window.addEventListener('pagehide', hide);
        this.stopFlushOnHide = () => window.removeEventListener('pagehide', hide);
      }
    }
  }

  /**
   * Shows stored session `id` at once: its transcript (repaired), its lock and its persistence. Its workspace is
   * put into the sandbox by restoreWorkspace. Throws when the session cannot be read.
   */
  static async open(id: string, options: OpenSessionOptions): Promise<OpenSession> {
    const { record, messages, lock } = await openStoredSession(options.store, id, options.acquireLock);
    try {
      const compactions = await options.store.loadCompactions(id);
      // Only the owning tab stores the reply a reload interrupted; another tab shows the transcript as stored.
      const transcript = lock ? await recoverInterruptedReply(options.store, id, messages) : messages;
      const tasks = await recoverInterruptedTasks(options.store, id, lock !== null);
      const controller = await options.host.createController({
        id,
        title: record.title || 'New session',
        createdAt: record.createdAt,
        messages: transcript,
        compactions,
        tasks,
      });
      controller.webTools.on = record.webTools === true;
      return new OpenSession({ id, controller, store: options.store, workspace: options.host.workspace, snapshots: options.snapshots, lock, saved: true, onSaveState: options.onSaveState });
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** A session the store could not keep: it works, and lasts until the page closes. */
  static async unsaved(options: Pick<OpenSessionOptions, 'store' | 'host' | 'snapshots'>): Promise<OpenSession> {
    const id = `unsaved-${Date.now().toString(36)}`;
    const controller = await options.host.createController({ id, title: 'New session', createdAt: Date.now(), messages: [] });
    return new OpenSession({ id, controller, store: options.store, workspace: options.host.workspace, snapshots: options.snapshots, lock: null, saved: false });
  }

  /**
   * Puts the session's stored workspace (latest, else its baseline, else empty) into the sandbox, writing only what
   * differs from what the sandbox holds, waiting for the sandbox to boot if need be; calls through the workspace (the
   * agent's tools) wait until it is in. Snapshots stored as whole zips (before content addressing) are converted first.
   */
  async restoreWorkspace(): Promise<void> {
    if (!this.saved) {
      await this.workspace.whenReady();
    } else {
      await this.workspace.exclusive((runtime) => restoreWorkspace(this.store, runtime, this.id, 'latest', this.snapshots));
    }
    void this.controller.measurePrompt();
  }

  /**
   * Whether nothing is in this session yet, so "New session" can reuse it rather than start another empty one: no
   * message (sent or on its way), no name the person gave it, nothing imported, no file in its workspace, and it is
   * this tab's to change.
   */
  async isBlank(): Promise<boolean> {
    const controller = this.controller;
    if (this.readOnly || controller.running || controller.transcript.length > 0) return false;
    if (this.saved) {
      const record = await this.store.getSession(this.id);
      if (!record || record.title !== '' || record.messageCount > 0 || record.baselineId) return false;
    }
    const files = await this.workspace.readdir(this.workspace.workdir);
    return files.length === 0;
  }

  /** Waits until everything of this session is stored. */
  async flush(): Promise<void> {
    await this.persistence?.flush();
  }

  /** Tries the failed writes again (after the person freed space). */
  async retrySaving(): Promise<void> {
    await this.persistence?.retry();
  }

  /** Stores the workspace after it was replaced as a whole (a repo import, a checkpoint restore). */
  async workspaceReplaced(): Promise<void> {
    await this.persistence?.workspaceReplaced();
  }

  /** Stops the agent, the persistence and the lock; the session leaves the screen. */
  close(): void {
    this.stopDrafts?.();
    this.stopFlushOnHide?.();
    this.persistence?.detach();
    this.lock?.release();
    this.lock = null;
    this.controller.dispose();
  }
}
