// The stored sessions and the one that is open: list, search, open and switch (the page has one sandbox, so a switch
// saves this session's workspace and restores the other's), rename, delete with confirmation, fork from a user
// message, and changes made in other tabs. Imports and exports are `transfer`'s, checkpoint restores `restore`'s.
import type { Message } from '../ai/types';
import type { DeferredRuntime } from '../runtime/deferred-runtime';
import type { Runtime } from '../runtime/types';
import {
  acquireSessionLock,
  createSessionStore,
  openSessionEvents,
  requestPersistentStorage,
  StorageFullError,
  type SessionEvents,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
} from '../store';
import type { SessionController } from './session-controller.svelte';
import { CheckpointRestore } from './checkpoint-restore.svelte';
import type { OpenSessionAccess } from './open-session-access';
import { openStoredSession, restoreWorkspace, SessionPersistence, type SaveState } from './session-persistence';
import { SandboxUnavailable, SessionSandbox } from './session-sandbox';
import { WorkspaceTransfer } from './workspace-transfer';

/** What the library needs from the page: the sandbox, and a controller for a session's transcript. */
export interface SessionHost {
  /** The one sandbox of this page; null while it boots (or when it could not start). */
  readonly runtime: Runtime | null;
  /** The sandbox once it is ready; rejects (with the reason for the person) when it could not start. */
  sandbox(): Promise<Runtime>;
  /**
   * A controller for a session's transcript working in `runtime`: a stand-in for the sandbox until the session's
   * workspace is in it, so the transcript shows (and a prompt can be sent) while the sandbox still boots.
   */
  createController(init: { id: string; title: string; createdAt: number; messages: Message[]; runtime: Runtime }): SessionController | Promise<SessionController>;
}

export type SessionLibraryOptions = {
  store: SessionStore;
  host: SessionHost;
  events?: SessionEvents;
  acquireLock?: (id: string) => Promise<SessionLock | null>;
};

/** Opens the IndexedDB store with cross-tab events wired in, and the library over it. */
export function createSessionLibrary(host: SessionHost, options: { prefix?: string } = {}): SessionLibrary {
  const events = openSessionEvents();
  let library: SessionLibrary | null = null;
  const store = createSessionStore({
    prefix: options.prefix,
    onChange: (change) => {
      events.publish(change);
      library?.refreshSoon();
    },
  });
  library = new SessionLibrary({ store, host, events });
  return library;
}

/** The sessions of this browser and the open one; components render it and call its methods. */
export class SessionLibrary {
  readonly store: SessionStore;
  records = $state.raw<SessionRecord[]>([]);
  query = $state('');
  current = $state.raw<SessionController | null>(null);
  /** True when another tab has the open session: it is shown, but nothing can be sent or changed. */
  readOnly = $state(false);
  saveState = $state<SaveState>('saved');
  /** A storage problem the person must see (a full disk), until it is resolved or dismissed. */
  storageError = $state<string | null>(null);
  /** The outcome of the last action that went wrong (open, delete, fork, restore), written for the person. */
  notice = $state<string | null>(null);
  /** Opening or switching a session. */
  busy = $state(false);
  pendingDelete = $state.raw<SessionRecord | null>(null);
  /** Whether the browser agreed not to evict stored data (null: it cannot say). */
  persisted = $state<boolean | null>(null);
  /** Imports into and exports of the open session (repo, session file, workspace zip, changes). */
  readonly transfer: WorkspaceTransfer;
  /** Restoring the open session's workspace to a checkpoint, and undoing that. */
  readonly restore: CheckpointRestore;

  private readonly options: SessionLibraryOptions;
  private persistence: SessionPersistence | null = null;
  private lock: SessionLock | null = null;
  private work: Promise<unknown> = Promise.resolve();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly sandbox: SessionSandbox;

  constructor(options: SessionLibraryOptions) {
    this.options = options;
    this.store = options.store;
    this.sandbox = new SessionSandbox(options.host);
    const session: OpenSessionAccess = {
      store: this.store,
      current: () => this.current,
      runtime: () => this.requireRuntime(),
      writableRuntime: () => this.requireWritable(),
      flush: async () => await this.persistence?.flush(),
      workspaceReplaced: async () => await this.persistence?.workspaceReplaced(),
      queue: (job) => this.queue(job),
      exclusive: (job) => this.exclusive(job),
      storageProblem: (error) => this.storageProblem(error),
      refresh: () => this.refresh(),
      open: (id) => this.open(id),
    };
    this.transfer = new WorkspaceTransfer(session);
    this.restore = new CheckpointRestore(session);
  }

  /** Sessions matching the search (title, model or provider), most recently used first. */
  get visible(): SessionRecord[] {
    const q = this.query.trim().toLowerCase();
    if (!q) return this.records;
    return this.records.filter((r) => `${r.title}\n${r.model}\n${r.provider}`.toLowerCase().includes(q));
  }

  get currentRecord(): SessionRecord | undefined {
    const id = this.current?.id;
    return id ? this.records.find((r) => r.id === id) : undefined;
  }

  /** Seqs of the open session's user messages that have a stored workspace checkpoint. */
  get checkpoints(): number[] {
    return this.currentRecord?.checkpoints ?? [];
  }

  /** Lists the sessions, listens to other tabs, asks for persistent storage and opens the last session (or a new one). */
  async start(): Promise<void> {
    this.unsubscribe = this.options.events?.subscribe((change) => {
      if (change.type === 'deleted' && change.id === this.current?.id) {
        this.notice = 'This session was deleted in another tab. It stays on screen until you switch away.';
      }
      this.refreshSoon();
    }) ?? null;
    void requestPersistentStorage().then((granted) => (this.persisted = granted));
    await this.openLatest();
  }

  /**
   * Opens the most recently used session, or a new one when there is none. Its transcript shows at once; its
   * workspace goes into the sandbox as soon as that is ready.
   */
  async openLatest(): Promise<void> {
    await this.refresh();
    const latest = this.records[0];
    if (latest) await this.open(latest.id);
    // A session that cannot be opened (damaged, deleted meanwhile) must not leave the page without one; without a
    // sandbox there is nothing to work in, and the page says why.
    if (!this.current && !this.sandbox.unavailable) await this.newSession();
  }

  stop(): void {
    this.unsubscribe?.();
    this.options.events?.close();
    this.persistence?.detach();
    this.lock?.release();
  }

  async refresh(): Promise<void> {
    try {
      this.records = await this.store.listSessions();
    } catch (error) {
      this.notice = `The session list could not be read: ${message(error)}`;
    }
  }

  /** Refreshes the list once after a burst of changes (every stored message is a change). */
  refreshSoon(): void {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      void this.refresh();
    }, 100);
  }

  /** Starts a new session with an empty workspace and opens it. */
  newSession(): Promise<void> {
    return this.exclusive(async () => {
      await this.leaveCurrent();
      let record: SessionRecord;
      try {
        record = await this.store.createSession();
      } catch (error) {
        await this.enterUnsaved(error);
        return;
      }
      await this.enter(record.id);
    });
  }

  /** Opens the current session again in a new sandbox (after the runtime changed). */
  reopen(): Promise<void> {
    return this.exclusive(async () => {
      const id = this.current?.id;
      if (!id || !this.records.some((r) => r.id === id)) {
        await this.leaveCurrent();
        await this.enterUnsaved(null);
        return;
      }
      await this.leaveCurrent();
      await this.enter(id);
    });
  }

  /** Opens stored session `id` (its transcript and workspace); read-only when another tab has it open. */
  open(id: string): Promise<void> {
    if (id === this.current?.id) return Promise.resolve();
    return this.exclusive(async () => {
      await this.leaveCurrent();
      await this.enter(id);
    });
  }

  rename(id: string, title: string): Promise<void> {
    return this.report(async () => {
      const record = await this.store.renameSession(id, title);
      if (this.current?.id === id) this.current.title = record.title || 'New session';
      await this.refresh();
    });
  }

  requestDelete(id: string): void {
    this.pendingDelete = this.records.find((r) => r.id === id) ?? null;
  }

  cancelDelete(): void {
    this.pendingDelete = null;
  }

  /** Deletes the session asked about; the open session is replaced by the next one (or a new one). */
  confirmDelete(): Promise<void> {
    const target = this.pendingDelete;
    this.pendingDelete = null;
    if (!target) return Promise.resolve();
    return this.exclusive(async () => {
      const isCurrent = target.id === this.current?.id;
      if (isCurrent) {
        if (this.current?.running) throw new Error('The agent is working in this session. Stop it first, then delete.');
        this.detachCurrent();
      } else {
        const lock = await (this.options.acquireLock ?? acquireSessionLock)(target.id);
        if (!lock) throw new Error(`“${target.title || 'Untitled'}” is open in another tab. Close it there first.`);
        lock.release();
      }
      await this.store.deleteSession(target.id);
      await this.refresh();
      if (!isCurrent) return;
      const next = this.records[0];
      await this.enter(next ? next.id : (await this.store.createSession()).id);
    });
  }

  /**
   * A new session with the transcript before user message `seq` and the workspace of that message's checkpoint;
   * the message's text goes back into the prompt box so the person can change it and send.
   */
  fork(seq: number): Promise<void> {
    return this.exclusive(async () => {
      const from = this.current;
      if (!from) return;
      await this.persistence?.flush();
      const result = await this.store.forkSession(from.id, seq);
      await this.leaveCurrent();
      await this.enter(result.session.id);
      if (this.current) this.current.draft = promptText(result.prompt);
      if (result.workspace !== 'checkpoint') {
        this.notice =
          result.workspace === 'baseline'
            ? 'No workspace was kept for that message, so the fork starts from the imported baseline.'
            : 'No workspace was kept for that message, so the fork starts with an empty workspace.';
      }
    });
  }

  /** Waits until everything of the open session is stored. */
  async flush(): Promise<void> {
    await this.persistence?.flush();
    await this.refresh();
  }

  /** Tries the failed writes again (after the person freed space). */
  async retrySaving(): Promise<void> {
    this.storageError = null;
    await this.persistence?.retry();
  }

  /**
   * Shows stored session `id` at once (transcript, lock, persistence), then puts its workspace into the sandbox,
   * waiting for the sandbox to boot if need be. Until the workspace is in, the session's tools wait with it.
   */
  private async enter(id: string): Promise<void> {
    const { record, messages, lock } = await openStoredSession(this.store, id, this.options.acquireLock);
    const workspace = this.sandbox.standIn();
    let controller: SessionController;
    try {
      controller = await this.options.host.createController({ id, title: record.title || 'New session', createdAt: record.createdAt, messages, runtime: workspace.runtime });
    } catch (error) {
      lock?.release();
      throw error;
    }
    this.lock = lock;
    this.readOnly = !lock;
    this.restore.forget();
    if (lock) this.persistence = this.persist(id, controller, workspace.runtime);
    this.current = controller;

    let runtime: Runtime;
    try {
      runtime = await this.sandbox.ready();
      await restoreWorkspace(this.store, runtime, id);
    } catch (error) {
      workspace.reject(asError(error));
      if (this.current === controller) this.detachCurrent();
      throw error;
    }
    await this.handOver(workspace, runtime);
    await this.refresh();
  }

  /** Without storage (IndexedDB refused), the person can still work; nothing survives a reload, and they are told. */
  private async enterUnsaved(error: unknown): Promise<void> {
    const workspace = this.sandbox.standIn();
    this.current = await this.options.host.createController({ id: `unsaved-${Date.now().toString(36)}`, title: 'New session', createdAt: Date.now(), messages: [], runtime: workspace.runtime });
    this.readOnly = false;
    if (error) {
      this.storageProblem(error);
      this.notice = `This session cannot be saved in this browser (${message(error)}); it lasts until the page closes.`;
    }
    let runtime: Runtime;
    try {
      runtime = await this.sandbox.ready();
    } catch (failure) {
      workspace.reject(asError(failure));
      throw failure;
    }
    await this.handOver(workspace, runtime);
  }

  /** Gives the open session its sandbox, and the open session's persistence a controller made again for it. */
  private async handOver(workspace: DeferredRuntime, runtime: Runtime): Promise<void> {
    const replacement = await this.sandbox.handOver(workspace, runtime, this.current);
    if (!replacement) return;
    if (this.persistence) {
      this.persistence.detach();
      this.persistence.attach(replacement);
    }
    this.current = replacement;
  }

  private persist(id: string, controller: SessionController, runtime: Runtime): SessionPersistence {
    const persistence = new SessionPersistence({
      store: this.store,
      runtime,
      sessionId: id,
      onStateChange: (state, error) => {
        this.saveState = state;
        if (error) this.storageProblem(error);
        else if (state === 'saved') this.storageError = null;
      },
    });
    persistence.attach(controller);
    return persistence;
  }

  private async leaveCurrent(): Promise<void> {
    const current = this.current;
    if (!current) return;
    if (current.running) throw new Error('The agent is still working in this session. Stop it first, then switch.');
    await this.persistence?.flush();
    this.detachCurrent();
  }

  private detachCurrent(): void {
    this.persistence?.detach();
    this.persistence = null;
    this.lock?.release();
    this.lock = null;
    this.current?.dispose();
    this.current = null;
    this.saveState = 'saved';
  }

  private requireRuntime(): Runtime {
    const runtime = this.options.host.runtime;
    if (!runtime) throw new Error('The sandbox is still starting; try again in a moment.');
    return runtime;
  }

  private requireWritable(): Runtime {
    const runtime = this.requireRuntime();
    if (!this.current) throw new Error('Open a session first.');
    if (this.readOnly) throw new Error('This session is open in another tab, so it is read-only here.');
    if (this.current.running) throw new Error('The agent is working; stop it first.');
    return runtime;
  }

  /** Runs one open/switch/delete at a time; a failure becomes the notice. */
  private exclusive(job: () => Promise<void>): Promise<void> {
    return this.queue(async () => {
      this.busy = true;
      try {
        await job();
      } catch (error) {
        if (error instanceof StorageFullError) this.storageError = error.message;
        else if (!(error instanceof SandboxUnavailable)) this.notice = message(error);
      } finally {
        this.busy = false;
      }
    });
  }

  /** Runs `job` after all the work queued before it; its failure is the caller's and does not stop later work. */
  private queue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.work.then(job, job);
    this.work = next.catch(() => undefined);
    return next;
  }

  private async report(job: () => Promise<void>): Promise<void> {
    try {
      await job();
    } catch (error) {
      if (error instanceof StorageFullError) this.storageError = error.message;
      else this.notice = message(error);
    }
  }

  private storageProblem(error: unknown): void {
    if (error instanceof StorageFullError) this.storageError = error.message;
  }
}

function promptText(prompt: Message): string {
  if (prompt.role !== 'user') return '';
  return typeof prompt.content === 'string' ? prompt.content : prompt.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
