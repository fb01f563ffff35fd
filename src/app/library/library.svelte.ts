// The stored sessions and the one that is open: list, search, open and switch (the page has one sandbox, so a switch
// saves this session's workspace and restores the other's), rename, delete with confirmation, fork from a user
// message, and changes made in other tabs. The open session is an OpenSession (controller, persistence, lock), put on
// screen and into the sandbox by SessionOnScreen; imports and exports are `transfer`'s, checkpoint restores `restore`'s.
import { errorText, messageText } from '../../ai/messages';
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
} from '../../store';
import type { SessionController } from '../session/controller.svelte';
import { CheckpointRestore } from '../session/checkpoint-restore.svelte';
import { MessageReveal } from '../session/message-reveal.svelte';
import { SessionSearch } from './search.svelte';
import { SandboxUnavailable, SessionOnScreen } from './session-on-screen.svelte';
import { OpenSession, type SessionHost } from '../session/open-session.svelte';
import type { OpenSessionAccess } from '../session/open-session-access';
import type { SaveState } from '../session/persistence';
import { StorageView } from '../settings/storage-view.svelte';
import { timed } from '../user-timing';
import { WorkspaceSnapshots } from '../session/workspace-snapshots';
import { WorkspaceTransfer } from './transfer';

export type { SessionHost } from '../session/open-session.svelte';

const COLLECT_AFTER_START_MS = 30_000;

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
  /** The search box: titles at once, message text from an index built on the first search. */
  readonly search: SessionSearch;
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
  /** The trees of the page's sandbox: what it holds now, whichever session is open. */
  readonly snapshots: WorkspaceSnapshots;
  /** What each session holds in storage, and freeing space by dropping old checkpoints. */
  readonly storage: StorageView;
  /** A message the transcript is asked to bring into view (a search result, a secret found for an export). */
  readonly reveal = new MessageReveal();

  private readonly options: SessionLibraryOptions;
  private work: Promise<unknown> = Promise.resolve();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;
  private collectTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly onScreen: SessionOnScreen;

  constructor(options: SessionLibraryOptions) {
    this.options = options;
    this.store = options.store;
    this.snapshots = new WorkspaceSnapshots(options.host.workspace, options.store.objects);
    this.storage = new StorageView(options.store);
    this.search = new SessionSearch(this.store, () => this.records);
    this.onScreen = new SessionOnScreen(options.host);
    const session: OpenSessionAccess = {
      store: this.store,
      snapshots: this.snapshots,
      current: () => this.current,
      workspace: () => this.onScreen.requireWorkspace(),
      writableWorkspace: () => this.onScreen.requireWritable(),
      flush: async () => await this.session?.flush(),
      workspaceReplaced: async () => await this.session?.workspaceReplaced(),
      queue: (job) => this.queue(job),
      exclusive: (job) => this.exclusive(job),
      storageProblem: (error) => this.storageProblem(error),
      refresh: () => this.refresh(),
      open: (id) => this.open(id),
    };
    this.transfer = new WorkspaceTransfer(session);
    this.restore = new CheckpointRestore(session);
  }

  /** The session on screen (controller, persistence, lock), or null before one is open. */
  get session(): OpenSession | null {
    return this.onScreen.session;
  }

  /** The open session's controller (what the transcript shows), or null. */
  get current(): SessionController | null {
    return this.session?.controller ?? null;
  }

  /** True when another tab has the open session: it is shown, but nothing can be sent or changed. */
  get readOnly(): boolean {
    return this.session?.readOnly ?? false;
  }

  get saveState(): SaveState {
    return this.session?.saveState ?? 'saved';
  }

  /** What is typed in the search box; setting it searches. */
  get query(): string {
    return this.search.query;
  }

  set query(query: string) {
    this.search.query = query;
    void this.search.run();
  }

  /** Sessions matching the search (title, model, provider or message text), most recently used first. */
  get visible(): SessionRecord[] {
    return this.search.results.map((match) => match.record);
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
    // Latest snapshots replaced since the last visit leave files no snapshot refers to; collected once things are quiet.
    this.collectTimer = setTimeout(() => void this.store.collectGarbage().catch(() => undefined), COLLECT_AFTER_START_MS);
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
    if (!this.current && !this.onScreen.sandboxUnavailable) await this.newSession();
  }

  stop(): void {
    if (this.collectTimer) clearTimeout(this.collectTimer);
    this.unsubscribe?.();
    this.options.events?.close();
    this.session?.close();
  }

  async refresh(): Promise<void> {
    try {
      this.records = await this.store.listSessions();
      if (this.search.query.trim()) void this.search.run();
    } catch (error) {
      this.notice = `The session list could not be read: ${errorText(error)}`;
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

  /** Starts a new session with an empty workspace and opens it; an open session with nothing in it yet is reused. */
  newSession(): Promise<void> {
    return this.exclusive(async () => {
      if (await this.session?.isBlank()) return;
      await this.onScreen.leave();
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

  /** Opens stored session `id` (its transcript and workspace); read-only when another tab has it open. */
  open(id: string): Promise<void> {
    if (id === this.current?.id) return Promise.resolve();
    return this.exclusive(async () => {
      await this.onScreen.leave();
      await this.enter(id);
    });
  }

  /** Opens stored session `id` (if it is not open) and brings its message `seq` into view, marked for a moment. */
  async openAt(id: string, seq: number): Promise<void> {
    await this.open(id);
    if (this.current?.id === id) this.reveal.show(id, seq);
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
        this.onScreen.close();
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
      await this.session?.flush();
      const result = await timed('fork', () => this.store.forkSession(from.id, seq));
      await this.onScreen.leave();
      await this.enter(result.session.id);
      if (this.current) this.current.draft = messageText(result.prompt);
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
    await this.session?.flush();
    await this.refresh();
  }

  /** Tries the failed writes again (after the person freed space). */
  async retrySaving(): Promise<void> {
    this.storageError = null;
    await this.session?.retrySaving();
  }

  /**
   * Shows stored session `id` at once (transcript, lock, persistence), then puts its workspace into the sandbox,
   * waiting for the sandbox to boot if need be. Until the workspace is in, the session's tools wait with it.
   */
  private async enter(id: string): Promise<void> {
    const session = await OpenSession.open(id, {
      store: this.store,
      host: this.options.host,
      snapshots: this.snapshots,
      acquireLock: this.options.acquireLock,
      onSaveState: (state, error) => {
        if (error) this.storageProblem(error);
        else if (state === 'saved') this.storageError = null;
      },
    });
    this.restore.forget();
    await this.onScreen.show(session);
    await this.refresh();
  }

  /** Without storage (IndexedDB refused), the person can still work; nothing survives a reload, and they are told. */
  private async enterUnsaved(error: unknown): Promise<void> {
    const session = await OpenSession.unsaved({ store: this.store, host: this.options.host, snapshots: this.snapshots });
    if (error) {
      this.storageProblem(error);
      this.notice = `This session cannot be saved in this browser (${errorText(error)}); it lasts until the page closes.`;
    }
    await this.onScreen.show(session);
  }

  /** Runs one open/switch/delete at a time; a failure becomes the notice. */
  private exclusive(job: () => Promise<void>): Promise<void> {
    return this.queue(async () => {
      this.busy = true;
      try {
        await job();
      } catch (error) {
        if (error instanceof StorageFullError) this.storageError = error.message;
        else if (!(error instanceof SandboxUnavailable)) this.notice = errorText(error);
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
      else this.notice = errorText(error);
    }
  }

  private storageProblem(error: unknown): void {
    if (error instanceof StorageFullError) this.storageError = error.message;
  }
}
