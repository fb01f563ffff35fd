// Keeps one open session in IndexedDB as it happens: each message as it completes, a checkpoint of the workspace per
// user turn, and the latest workspace whenever files changed. Also reopens a stored session (lock, transcript repair,
// workspace restore). All writes go through one queue, so entries land in the order the transcript has them.
// A snapshot costs what changed: the workspace's changed paths are taken the moment a snapshot is due (a user
// message, a tool result, the end of a run, a quiet moment after the person's own edits) and only those files are
// read and stored; when nothing changed (a read-only command) nothing is read or written. Taking a snapshot never
// holds up the agent: the files are read at once and the rest happens in this queue. Subagent tasks are written whole,
// throttled per task (task-writes.ts), through the same queue.
import type { CompactionEntry, Message, TaskEntry } from '../../ai/types';
import type { ObjectId } from '../../runtime/object-id';
import type { Runtime } from '../../runtime/types';
import { Workspace } from '../../runtime/workspace/workspace';
import type { SessionEvent } from './controller.svelte';
import {
  acquireSessionLock,
  EMPTY_SNAPSHOT_TREE,
  repairTranscript,
  SNAPSHOT_EXCLUDE,
  MissingObjectError,
  snapshotOfZip,
  StorageFullError,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
  type SnapshotRef,
} from '../../store';
import { sessionBaseline } from '../workspace/baseline';
import { timed } from '../user-timing';
import { TaskWrites } from './task-writes';
import { WorkspaceSnapshots, type Capture } from './workspace-snapshots';

/** What persistence listens to: a SessionController's events. */
export interface PersistedSession {
  subscribe(listener: (event: SessionEvent) => void): () => void;
}

/** 'saved': everything is stored; 'saving': writes are queued; 'failed': a write failed and will be retried. */
export type SaveState = 'saved' | 'saving' | 'failed';

export type SessionPersistenceOptions = {
  store: Pick<SessionStore, 'appendEntry' | 'appendCompaction' | 'saveTask' | 'commitSnapshot' | 'objects' | 'updateSession'>;
  /** The session's workspace: its changes are followed and its files snapshotted. */
  workspace: Runtime;
  /** The page's snapshot tracker (one per sandbox); one is made for `workspace` when not given. */
  snapshots?: WorkspaceSnapshots;
  sessionId: string;
  /** Told whenever the save state changes; `error` is set while the state is 'failed'. */
  onStateChange?: (state: SaveState, error: Error | null) => void;
  /** Quiet time after a reported file change (a person's edit, the terminal, a long command) before saving. */
  idleSnapshotMs?: number;
};

/** Written in transcript order: a compaction names the messages before it, so it waits for them. */
type Unsaved = { message: Message; checkpoint?: Promise<Capture | null> } | { compaction: CompactionEntry };

/** Writes one session's messages and workspace snapshots as they happen. */
export class SessionPersistence {
  readonly sessionId: string;
  readonly snapshots: WorkspaceSnapshots;
  private readonly options: SessionPersistenceOptions;
  private readonly workspace: Workspace;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private unsaved: Unsaved[] = [];
  /** The latest version of each task not stored yet (a failed write keeps it for `retry`). */
  private readonly unsavedTasks = new Map<string, TaskEntry>();
  private readonly taskWrites = new TaskWrites({ write: (task) => this.taskChanged(task), onWaitingChange: () => this.publishState() });
  /** The root tree stored as this session's latest, when known. */
  private storedLatest: string | undefined;
  private unsubscribe: (() => void) | null = null;
  private stopWatching: (() => void) | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private lastError: Error | null = null;
  private snapshotFailed = false;
  private state: SaveState = 'saved';

  constructor(options: SessionPersistenceOptions) {
    this.options = options;
    this.sessionId = options.sessionId;
    this.snapshots = options.snapshots ?? new WorkspaceSnapshots(Workspace.of(options.workspace), options.store.objects);
    this.workspace = this.snapshots.workspace;
  }

  /** Subscribes to the controller's events and starts following the workspace; returns the detach function. */
  attach(session: PersistedSession): () => void {
    this.detach();
    this.unsubscribe = session.subscribe((event) => {
      switch (event.type) {
        case 'message':
          return this.messageCompleted(event.message);
        case 'compaction':
          return this.compactionMade(event.compaction);
        case 'run-end':
          return this.runEnded();
        case 'web-tools':
          return this.enqueue(async () => void (await this.options.store.updateSession(this.sessionId, { webTools: event.on })));
        case 'task':
          return this.taskWrites.changed(event.task);
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    });
    this.stopWatching = this.workspace.watch((paths) => this.filesChanged(paths));
    return () => this.detach();
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.taskWrites.dispose();
    this.stopWatching?.();
    this.stopWatching = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  get saveState(): SaveState {
    return this.state;
  }

  get error(): Error | null {
    return this.lastError;
  }

  /** Stores a completed message; a user message also gets a checkpoint of the workspace as it is now. */
  messageCompleted(message: Message): void {
    // Taken now, before the agent's first tool call of this turn can change anything.
    const checkpoint = message.role === 'user' ? this.capture() : undefined;
    this.unsaved.push({ message, checkpoint });
    this.enqueue(() => this.writeUnsaved());
    // After a tool call that changed files, save the workspace, so a reload mid-run finds the agent's edits.
    if (message.role === 'toolResult' && this.behind) this.snapshotSoon();
  }

  /** Stores a compaction once the messages before it are stored. */
  compactionMade(compaction: CompactionEntry): void {
    this.unsaved.push({ compaction });
    this.enqueue(() => this.writeUnsaved());
  }

  /** Runs `job` after every write queued before it; resolves (or rejects) with it. */
  afterWrites(job: () => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.enqueue(() => job().then(resolve, (error: unknown) => {
        reject(error);
        throw error;
      }));
    });
  }

  /** A run ended (done, aborted or failed): saves the workspace if it changed. */
  runEnded(): void {
    this.taskWrites.flush();
    if (this.behind) this.snapshotSoon();
  }

  /** Whether the stored latest may lag the workspace: files changed, another capture moved on, or a save failed. */
  private get behind(): boolean {
    return !this.workspace.unchanged || this.snapshots.lastRoot !== this.storedLatest || this.snapshotFailed;
  }

  /** Saves the workspace after it was replaced as a whole (a restore, an import). */
  workspaceReplaced(): Promise<void> {
    this.snapshotSoon();
    return this.flush();
  }

  /** Resolves when every queued write has been attempted (saving a pending idle snapshot first). */
  async flush(): Promise<void> {
    this.taskWrites.flush();
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
      this.snapshotSoon();
    }
    let current: Promise<void>;
    do {
      current = this.queue;
      await current;
    } while (current !== this.queue);
  }

  /** Tries failed writes again (after the person freed space). */
  retry(): Promise<void> {
    this.enqueue(() => this.writeUnsaved());
    if (this.unsavedTasks.size > 0) this.enqueue(() => this.writeTasks());
    if (this.behind) this.snapshotSoon();
    return this.flush();
  }

  private filesChanged(paths: string[]): void {
    if (paths.every((p) => SNAPSHOT_EXCLUDE.some((name) => p.split('/').includes(name)))) return;
    // Also during a run: a long command's changes must survive a reload before its result arrives.
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.behind) this.snapshotSoon();
    }, this.options.idleSnapshotMs ?? 1000);
  }

  /** Takes a snapshot now and stores it as the latest once the writes queued before it are done. */
  private snapshotSoon(): void {
    const capture = this.capture();
    this.enqueue(async () => {
      const taken = await capture;
      if (taken) await this.commit('latest', taken);
    });
  }

  private async writeUnsaved(): Promise<void> {
    while (this.unsaved.length > 0) {
      const next = this.unsaved[0];
      if ('compaction' in next) {
        await this.options.store.appendCompaction(this.sessionId, next.compaction);
        this.unsaved.shift();
        continue;
      }
      const seq = await this.options.store.appendEntry(this.sessionId, next.message);
      this.unsaved.shift();
      const taken = await next.checkpoint;
      if (!taken) continue;
      await this.commit({ checkpoint: seq }, taken);
      await this.commit('latest', taken);
    }
  }

  private taskChanged(task: TaskEntry): void {
    this.unsavedTasks.set(task.toolCallId, task);
    this.enqueue(() => this.writeTasks());
  }

  private async writeTasks(): Promise<void> {
    for (const [id, task] of [...this.unsavedTasks]) {
      await this.options.store.saveTask(this.sessionId, task);
      if (this.unsavedTasks.get(id) === task) this.unsavedTasks.delete(id);
    }
  }

  /** Stores `taken` as `ref` (nothing to do when it is the latest already); a failure is retried by `retry`. */
  private async commit(ref: SnapshotRef, taken: Capture): Promise<void> {
    if (ref === 'latest' && taken.root === this.storedLatest && taken.objects.blobs.size === 0 && taken.objects.trees.size === 0) return;
    try {
      await timed('snapshot-commit', () => this.options.store.commitSnapshot(this.sessionId, ref, taken), (bytes) => ({ ref: typeof ref === 'object' ? 'checkpoint' : ref, bytes }));
      this.snapshots.stored(taken);
      if (ref === 'latest') this.storedLatest = taken.root;
      this.snapshotFailed = false;
    } catch (error) {
      this.snapshotFailed = true;
      // The store lost something the tree here relies on: the next snapshot compares and reads everything.
      if (error instanceof MissingObjectError) this.snapshots.forget();
      throw error;
    }
  }

  /** A snapshot of the workspace as it is now; null when none could be taken (a checkpoint must not stop the message). */
  private capture(): Promise<Capture | null> {
    return timed('snapshot-capture', () => this.snapshots.capture()).catch(
      (error: unknown) => {
        this.snapshotFailed = true;
        this.lastError = asError(error);
        return null;
      },
    );
  }

  private enqueue(job: () => Promise<void>): void {
    this.queued++;
    this.publishState();
    this.queue = this.queue
      .then(job)
      .then(
        () => {
          if (this.unsaved.length === 0 && this.unsavedTasks.size === 0 && !this.snapshotFailed) this.lastError = null;
        },
        (error: unknown) => {
          this.lastError = asError(error);
        },
      )
      .finally(() => {
        this.queued--;
        this.publishState();
      });
  }

  private publishState(): void {
    const state: SaveState = this.queued > 0 || this.taskWrites.waiting ? 'saving' : this.lastError ? 'failed' : 'saved';
    if (state === this.state) return;
    this.state = state;
    this.options.onStateChange?.(state, this.lastError);
  }
}

/** A stored session opened for viewing or working: its record, repaired transcript and lock (null: read-only). */
export type OpenedSession = { record: SessionRecord; messages: Message[]; lock: SessionLock | null };

/**
 * Opens stored session `id`. The tab that gets the session's lock recovers the transcript (synthesized aborted
 * results are stored); another tab gets a repaired copy, read-only. Throws when the session does not exist.
 */
export async function openStoredSession(
  store: Pick<SessionStore, 'getSession' | 'recoverSession' | 'loadEntries'>,
  id: string,
  acquireLock: (id: string) => Promise<SessionLock | null> = acquireSessionLock,
): Promise<OpenedSession> {
  const record = await store.getSession(id);
  if (!record) throw new Error('This session no longer exists; it may have been deleted in another tab.');
  const lock = await acquireLock(id);
  let stored: Message[];
  let recovered = false;
  try {
    stored = lock ? await store.recoverSession(id) : await store.loadEntries(id);
    recovered = lock !== null;
  } catch (error) {
    // A full disk must not keep the person from reading the session: repair in memory instead.
    if (!(error instanceof StorageFullError)) {
      lock?.release();
      throw error;
    }
    stored = await store.loadEntries(id);
  }
  // The owning tab keeps every stored entry, so a message's index stays its seq (compactions name messages by seq)
  // and a failed last reply keeps its Retry; recoverSession already gave dangling tool calls their results.
  return { record, messages: recovered ? stored : repairTranscript(stored), lock };
}

/**
 * Puts a stored workspace into the runtime, writing only what differs from what it holds: `latest` falls back to the
 * baseline, then to an empty workspace (folders snapshots leave out, such as node_modules, stay). Zip-era snapshots
 * of the session are converted first. Returns which one was used. `snapshots`: the page's tracker of the runtime's
 * files (one is made for `runtime` when not given). The runtime is also told the session's baseline (for its git).
 */
export async function restoreWorkspace(
  store: Pick<SessionStore, 'loadStoredSnapshot' | 'upgradeSnapshots' | 'objects' | 'loadSnapshot' | 'getSession'>,
  runtime: Runtime,
  id: string,
  ref: SnapshotRef = 'latest',
  snapshots: WorkspaceSnapshots = new WorkspaceSnapshots(Workspace.of(runtime), store.objects),
): Promise<'snapshot' | 'baseline' | 'empty'> {
  const used = await putStoredWorkspace(store, runtime, id, ref, snapshots);
  const record = await store.getSession(id);
  await runtime.setBaseline?.(record ? sessionBaseline(store, record) : null);
  return used;
}

async function putStoredWorkspace(
  store: Pick<SessionStore, 'loadStoredSnapshot' | 'upgradeSnapshots' | 'objects'>,
  runtime: Runtime,
  id: string,
  ref: SnapshotRef,
  snapshots: WorkspaceSnapshots,
): Promise<'snapshot' | 'baseline' | 'empty'> {
  await store.upgradeSnapshots(id).catch(() => undefined); // a zip that stays (no room to convert it) is restored from memory
  const put = async (which: SnapshotRef): Promise<boolean> => {
    const root = await storedRoot(store, snapshots, id, which);
    if (root === undefined) return false;
    await snapshots.restore(runtime, root, { undo: false }); // opening a session has no undo
    return true;
  };
  if (await put(ref)) return 'snapshot';
  if (ref === 'latest' && (await put('baseline'))) return 'baseline';
  if (typeof ref === 'object') throw new Error(`No workspace was kept for message ${ref.checkpoint}, so there is nothing to restore.`);
  await snapshots.restore(runtime, EMPTY_SNAPSHOT_TREE, { undo: false });
  return 'empty';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The root tree of stored snapshot `ref` of session `id`, or undefined when there is none. A zip-era snapshot that
 * could not be converted in storage (no room) is converted in memory, its objects held by `snapshots` until the next
 * snapshot stores them.
 */
export async function storedRoot(
  store: Pick<SessionStore, 'loadStoredSnapshot'>,
  snapshots: Pick<WorkspaceSnapshots, 'hold'>,
  id: string,
  ref: SnapshotRef,
): Promise<ObjectId | undefined> {
  const stored = await store.loadStoredSnapshot(id, ref);
  if (!stored) return undefined;
  if ('tree' in stored) return stored.tree;
  const converted = await snapshotOfZip(stored.zip);
  snapshots.hold(converted.objects);
  return converted.root;
}
