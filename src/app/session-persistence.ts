// Keeps one open session in IndexedDB as it happens: each message as it completes, a checkpoint of the workspace per
// user turn, and the latest workspace whenever files changed. Also reopens a stored session (lock, transcript repair,
// workspace restore). All writes go through one queue, so entries land in the order the transcript has them.
import type { CompactionEntry, Message } from '../ai/types';
import type { Runtime } from '../runtime/types';
import { toolTraits } from '../tools/catalog';
import type { SessionEvent } from './session-controller.svelte';
import {
  acquireSessionLock,
  repairTranscript,
  SNAPSHOT_EXCLUDE,
  StorageFullError,
  zipFromFiles,
  type SessionLock,
  type SessionRecord,
  type SessionStore,
  type SnapshotRef,
} from '../store';
import { sessionBaseline } from './workspace-baseline';

/** What persistence listens to: a SessionController's events. */
export interface PersistedSession {
  subscribe(listener: (event: SessionEvent) => void): () => void;
}

/** 'saved': everything is stored; 'saving': writes are queued; 'failed': a write failed and will be retried. */
export type SaveState = 'saved' | 'saving' | 'failed';

export type SessionPersistenceOptions = {
  store: Pick<SessionStore, 'appendEntry' | 'appendCompaction' | 'saveSnapshot'>;
  /** The session's workspace: snapshots are exported from it, and its changes reported by it. */
  workspace: Pick<Runtime, 'exportZip' | 'watch'>;
  sessionId: string;
  /** Told whenever the save state changes; `error` is set while the state is 'failed'. */
  onStateChange?: (state: SaveState, error: Error | null) => void;
  /** Quiet time after a reported file change (a person's edit, the terminal, a long command) before saving. */
  idleSnapshotMs?: number;
};

/** Written in transcript order: a compaction names the messages before it, so it waits for them. */
type Unsaved = { message: Message; checkpoint?: Promise<Uint8Array | null> } | { compaction: CompactionEntry };

const snapshotOptions = { exclude: SNAPSHOT_EXCLUDE.flatMap((name) => [`${name}/**`, `**/${name}/**`]) };

/** Writes one session's messages and workspace snapshots as they happen. */
export class SessionPersistence {
  readonly sessionId: string;
  private readonly options: SessionPersistenceOptions;
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private unsaved: Unsaved[] = [];
  private dirty = false;
  private unsubscribe: (() => void) | null = null;
  private stopWatching: (() => void) | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private lastError: Error | null = null;
  private snapshotFailed = false;
  private state: SaveState = 'saved';

  constructor(options: SessionPersistenceOptions) {
    this.options = options;
    this.sessionId = options.sessionId;
  }

  /** Subscribes to the controller's events and starts watching the workspace; returns the detach function. */
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
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    });
    this.stopWatching = this.options.workspace.watch((paths) => this.filesChanged(paths));
    return () => this.detach();
  }

  detach(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
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
    // The export starts now, before the agent's first tool call of this turn can change anything.
    const checkpoint = message.role === 'user' ? this.exportWorkspace() : undefined;
    this.unsaved.push({ message, checkpoint });
    this.enqueue(() => this.writeUnsaved());
    // After a tool call that may have changed files, save the workspace, so a reload mid-run finds the agent's
    // edits. The runtime's watch reports changes a little later, so the tool's name decides here.
    if (message.role === 'toolResult' && (this.dirty || toolTraits(message.toolName).mutating)) {
      this.dirty = true;
      this.snapshotSoon();
    }
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
    if (this.dirty) this.snapshotSoon();
  }

  /** Marks the workspace changed (e.g. after restoring a checkpoint into it) and saves it. */
  workspaceReplaced(): Promise<void> {
    this.dirty = true;
    this.snapshotSoon();
    return this.flush();
  }

  /** Resolves when every queued write has been attempted (saving a pending idle snapshot first). */
  async flush(): Promise<void> {
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
    if (this.dirty) this.snapshotSoon();
    return this.flush();
  }

  private filesChanged(paths: string[]): void {
    if (paths.every((p) => SNAPSHOT_EXCLUDE.some((name) => p.split('/').includes(name)))) return;
    this.dirty = true;
    // Also during a run: a long command's changes must survive a reload before its result arrives.
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      this.snapshotSoon();
    }, this.options.idleSnapshotMs ?? 1000);
  }

  private snapshotSoon(): void {
    this.enqueue(async () => {
      if (!this.dirty) return; // an earlier queued snapshot already took these changes
      this.dirty = false;
      try {
        const zip = await this.options.workspace.exportZip(snapshotOptions);
        await this.options.store.saveSnapshot(this.sessionId, 'latest', zip);
        this.snapshotFailed = false;
      } catch (error) {
        this.dirty = true;
        this.snapshotFailed = true;
        throw error;
      }
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
      const zip = await next.checkpoint;
      if (zip) await this.options.store.saveSnapshot(this.sessionId, { checkpoint: seq }, zip);
    }
  }

  private exportWorkspace(): Promise<Uint8Array | null> {
    // A checkpoint that cannot be taken must not stop the message itself from being stored.
    return this.options.workspace.exportZip(snapshotOptions).catch(() => null);
  }

  private enqueue(job: () => Promise<void>): void {
    this.queued++;
    this.publishState();
    this.queue = this.queue
      .then(job)
      .then(
        () => {
          if (this.unsaved.length === 0 && !this.snapshotFailed) this.lastError = null;
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
    const state: SaveState = this.queued > 0 ? 'saving' : this.lastError ? 'failed' : 'saved';
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

const EMPTY_WORKSPACE = zipFromFiles(new Map());

/**
 * Puts a stored workspace into the runtime, replacing what is there: `latest` falls back to the baseline, then to an
 * empty workspace. Returns which one was used. The runtime is also told the session's baseline (for its git).
 */
export async function restoreWorkspace(
  store: Pick<SessionStore, 'loadSnapshot' | 'getSession'>,
  runtime: Pick<Runtime, 'importZip' | 'setBaseline'>,
  id: string,
  ref: SnapshotRef = 'latest',
): Promise<'snapshot' | 'baseline' | 'empty'> {
  const used = await importStoredWorkspace(store, runtime, id, ref);
  const record = await store.getSession(id);
  await runtime.setBaseline?.(record ? sessionBaseline(store, record) : null);
  return used;
}

async function importStoredWorkspace(
  store: Pick<SessionStore, 'loadSnapshot'>,
  runtime: Pick<Runtime, 'importZip'>,
  id: string,
  ref: SnapshotRef,
): Promise<'snapshot' | 'baseline' | 'empty'> {
  const zip = await store.loadSnapshot(id, ref);
  if (zip) {
    await runtime.importZip(zip);
    return 'snapshot';
  }
  if (ref === 'latest') {
    const baseline = await store.loadSnapshot(id, 'baseline');
    if (baseline) {
      await runtime.importZip(baseline);
      return 'baseline';
    }
  }
  if (typeof ref === 'object') throw new Error(`No workspace was kept for message ${ref.checkpoint}, so there is nothing to restore.`);
  await runtime.importZip(EMPTY_WORKSPACE);
  return 'empty';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
