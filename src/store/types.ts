// Data shapes of the storage layer (../../shared/DESIGN.md, "Storage" and "Session file").
import type { AssistantMessage, CompactionEntry, Message, TaskEntry, UserMessage } from '../ai/types';
import type { ObjectId } from '../runtime/object-id';
import type { NewObjects, ObjectStore } from './objects/object-store';
import type { FileMap } from './file-map';
import type { CollectOptions, GarbageReport, SessionSnapshots, SessionUsage, SnapshotRef, SnapshotUpgrade, StoredSnapshot } from './objects/snapshot-types';

export type { FileMap, SnapshotRef };
export type { SkipReason, ZipImportOptions, ZipImportProgress, ZipImportResult } from './zip/repo-zip';

export type { GarbageReport, NewObjects, SessionSnapshots, SessionUsage, SnapshotUpgrade, StoredSnapshot };

/** Workspace files keyed by POSIX path relative to the workspace root ("src/main.ts", never "/x" or "../x"). */

export type TokenTotals = { input: number; output: number; cacheRead: number; cacheWrite: number };

/** The small per-session record; the transcript lives in separate entry records. */
export interface SessionRecord {
  id: string;
  title: string;
  createdAt: number; // ms since epoch
  updatedAt: number;
  model: string; // last model used ('' until the first assistant message)
  provider: string;
  /** Number of entries; also the seq the next appended message gets. */
  messageCount: number;
  cost: number; // $ total of assistant usage
  tokens: TokenTotals;
  /** Session whose `<baselineId>/baseline` snapshot is this session's baseline (forks share their parent's). */
  baselineId?: string;
  /** What was imported as the baseline (a zip's file name): the embedded git's first commit is "Imported <name>". */
  baselineName?: string;
  /** Seqs of user messages that have a checkpoint snapshot, ascending. */
  checkpoints: number[];
  forkedFrom?: { sessionId: string; seq: number };
  importedAt?: number;
  /** The session a shared file held (records imported before this field existed have importedAt only). */
  importedFrom?: ImportedFrom;
  /** The host repository the baseline was imported from (never a token). */
  origin?: RepoOrigin;
  /**
   * What this session's last push to its origin made (a pull or merge request's record, never a token), so the next
   * push continues the same branch and request; its shape is the remote layer's, checked by the app when read.
   */
  pushRecord?: StoredPushRecord;
  /** The person switched on the provider's own web search and fetch for this session. */
  webTools?: boolean;
}

/** A push's record as stored: the host and imported commit it was made for, and the host client's own record. */
export type StoredPushRecord = { host: 'github' | 'gitlab'; base: string; record: Record<string, unknown> };

/**
 * Where a baseline imported from a host came from: the repository, the ref asked for and the commit it was at.
 * `web` is the host's web origin (https://github.com, an Enterprise or self-managed host); `folder`, the one folder
 * imported (the workspace's paths are relative to it), absent for the whole repository.
 */
export type RepoOrigin = { host: 'github' | 'gitlab'; web: string; owner: string; repo: string; ref: string; sha: string; folder?: string };

/** Where an imported session came from, as its file's header said: the original title, when it was started and exported. */
export type ImportedFrom = { title: string; createdAt: number; exportedAt: number };

export type NewSession = { title?: string; model?: string; provider?: string };
export type SessionPatch = Partial<
  Pick<SessionRecord, 'title' | 'model' | 'provider' | 'cost' | 'tokens' | 'baselineName' | 'origin' | 'pushRecord' | 'webTools'>
>;


/** A list change another tab (or this one) should react to. */
export type SessionChange =
  | { type: 'created'; id: string }
  | { type: 'updated'; id: string }
  | { type: 'deleted'; id: string };

export type ForkResult = {
  session: SessionRecord;
  /** The user message forked from: it is NOT in the new transcript, so the UI can put it back in the prompt box. */
  prompt: UserMessage;
  /** Where the fork's workspace came from: the checkpoint at that message, the baseline, or nothing stored. */
  workspace: 'checkpoint' | 'baseline' | 'none';
};

/** A content-addressed snapshot to store: its root tree, and the objects it needs that the store may lack. */
export type SnapshotCommit = { root: ObjectId; objects: NewObjects };

/** Everything a new session is created from in one go (session-file import). */
export type SessionSeed = {
  title: string;
  model: string;
  provider: string;
  createdAt?: number;
  /** Set for a session imported from a shared file. */
  importedFrom?: ImportedFrom;
  messages: Message[];
  /** Compactions of `messages` (atSeq at most messages.length), in the order made. */
  compactions?: CompactionEntry[];
  /** Subagent tasks answering tool calls of `messages`, in call order. */
  tasks?: TaskEntry[];
  /**
   * The messages already in their stored form (entry-codec.ts), prepared off the page's thread, same order. When
   * given, they are what is stored, and `messages` only count tokens and cost (their large texts may be blank).
   */
  storedEntries?: unknown[];
  latest?: Uint8Array; // workspace zip (zip-era form)
  baseline?: Uint8Array; // baseline zip (zip-era form)
  checkpoints?: Map<number, Uint8Array>;
  /** The snapshots as trees (roots by ref) with every object they need; used instead of the zips when given. */
  trees?: { latest?: ObjectId; baseline?: ObjectId; checkpoints: Map<number, ObjectId>; objects: NewObjects };
};

export type LoadedSession = { session: SessionRecord; messages: Message[] };

export type FileStatus = 'added' | 'modified' | 'deleted';
export interface FileChange {
  path: string;
  status: FileStatus;
  binary: boolean;
  oldText?: string; // text files only; absent when added
  newText?: string; // text files only; absent when deleted
}

export type SecretKind =
  | 'anthropic-key'
  | 'openai-key'
  | 'google-key'
  | 'github-token'
  | 'slack-token'
  | 'aws-access-key'
  | 'private-key'
  | 'env-value'
  | 'known-secret';

export interface SecretFinding {
  id: string; // stable within one scan, for the review UI's checkboxes
  where: 'transcript' | 'workspace' | 'baseline';
  seq?: number; // transcript: the message's index
  field?: string; // transcript: where in the message, e.g. "content/0/text"
  path?: string; // workspace: the file
  line: number; // 1-based line within that text
  kind: SecretKind;
  preview: string; // masked, safe to show
  /** The text around it on its line, with it and every other secret there masked: safe to show. */
  context: string;
  /** The matched text itself, used by redactSecrets. Never render it. */
  value: string;
}

export type SessionFileHeader = {
  type: 'header';
  format: 'conch-session';
  version: 1;
  id: string;
  title: string;
  createdAt: number;
  model: string;
  provider: string;
  exportedAt: number;
};

export interface SessionFileContents {
  header: SessionFileHeader;
  messages: Message[];
  /** In the order made; files from before compaction existed have none. */
  compactions: CompactionEntry[];
  /** Subagent tasks, in call order (none in files from before subagents). */
  tasks: TaskEntry[];
  workspace: FileMap;
  baseline: FileMap | null;
  /**
   * The git blob id of each file of `workspace` and of `baseline` (empty without one), by path: hashed from the
   * bytes on import, once, so storing them needs no second pass.
   */
  workspaceIds: Map<string, ObjectId>;
  baselineIds: Map<string, ObjectId>;
  /** Checkpoint workspace zips by user-message seq (files written before snapshots/). */
  checkpoints: Map<number, Uint8Array>;
  /** Checkpoints as trees, each file once; null when the file has none. */
  snapshots: SessionSnapshots | null;
}

/** Persistence of sessions, transcripts, snapshots and settings (IndexedDB). Made by createSessionStore(). */
export interface SessionStore {
  /** Settings object as stored (API keys included: they never leave this store). Validate it with your schema. */
  getSettings(): Promise<unknown>;
  setSettings(settings: unknown): Promise<void>;
  /** The session's local-folder link as stored (a directory handle and a sync record); validate it where it is read. */
  loadFolderLink(id: string): Promise<unknown>;
  /** Stores the session's local-folder link (structured-cloned, so a handle survives a reload); undefined removes it. */
  saveFolderLink(id: string, link: unknown): Promise<void>;

  createSession(init?: NewSession): Promise<SessionRecord>;
  /** All sessions, most recently updated first. */
  listSessions(): Promise<SessionRecord[]>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  renameSession(id: string, title: string): Promise<SessionRecord>;
  updateSession(id: string, patch: SessionPatch): Promise<SessionRecord>;
  /** Removes the session, its entries and its snapshots (a baseline shared with a fork stays for the fork). */
  deleteSession(id: string): Promise<void>;

  /** Stores one completed message; returns its seq. Never rewrites earlier entries. */
  appendEntry(sessionId: string, message: Message): Promise<number>;
  /** The stored transcript; index === seq. Read-only viewers pass it through repairTranscript before use. */
  loadEntries(sessionId: string): Promise<Message[]>;
  /**
   * What session search looks through in each message from `fromSeq` on (search-text.ts), one text per message in
   * order; large texts are read from their Blobs only as far as search needs.
   */
  loadSearchTexts(sessionId: string, fromSeq: number): Promise<string[]>;
  /**
   * For the tab that owns the session (holds its lock) on open: appends synthesized aborted results for tool
   * calls of the last assistant message that have none (reload mid-turn), then returns the transcript.
   */
  recoverSession(sessionId: string): Promise<Message[]>;
  /**
   * Stores a compaction beside the entries (append-only) and counts its usage in the session's totals. Rejects one
   * that names messages the session does not have.
   */
  appendCompaction(sessionId: string, compaction: CompactionEntry): Promise<void>;
  /** The session's compactions, in the order made. */
  loadCompactions(sessionId: string): Promise<CompactionEntry[]>;

  /**
   * Stores a subagent task as it is now, whole, replacing its previous version (keyed by its toolCallId); its usage
   * counts in the session's totals (what it used since the stored version is added).
   */
  saveTask(sessionId: string, task: TaskEntry): Promise<void>;
  /** The session's subagent tasks as stored, in call order. Throws, naming the problem, when one is damaged. */
  loadTasks(sessionId: string): Promise<TaskEntry[]>;

  /**
   * The reply being streamed, kept so a reload can show it as interrupted. One slot per session, overwritten by each
   * save (not an entry: entries are append-only). Write it through a DraftWriter, which throttles.
   */
  saveDraft(sessionId: string, draft: AssistantMessage): Promise<void>;
  /** The saved draft, or undefined. Throws, naming the problem, when what is stored is not a reply. */
  loadDraft(sessionId: string): Promise<AssistantMessage | undefined>;
  /** Empties the slot: the reply completed (and was appended as an entry) or was dealt with. */
  clearDraft(sessionId: string): Promise<void>;

  /** Creates a session with its transcript and snapshots in one transaction (new id; overwrites nothing). */
  importSession(seed: SessionSeed): Promise<SessionRecord>;

  /**
   * Saves a workspace zip as it is (the zip-era form, converted to trees when the session is next opened); a
   * checkpoint ref also records the seq in session.checkpoints.
   */
  saveSnapshot(sessionId: string, ref: SnapshotRef, zip: Uint8Array): Promise<void>;
  /** The snapshot as a workspace zip: the stored zip, or one built from its tree. */
  loadSnapshot(sessionId: string, ref: SnapshotRef): Promise<Uint8Array | undefined>;
  listCheckpoints(sessionId: string): Promise<number[]>;

  /** The folders and file contents of content-addressed snapshots. */
  readonly objects: ObjectStore;
  /**
   * Stores a content-addressed snapshot: the objects the store lacks and the ref, in one transaction (all or
   * nothing: a failure leaves the previous snapshot whole). Returns the bytes written.
   */
  commitSnapshot(sessionId: string, ref: SnapshotRef, snapshot: SnapshotCommit): Promise<number>;
  /** How a snapshot is stored (a root tree, or a zip-era zip), or undefined when there is none. */
  loadStoredSnapshot(sessionId: string, ref: SnapshotRef): Promise<StoredSnapshot | undefined>;
  /** Converts the session's zip-era snapshots (and its baseline) to trees; a zip that cannot be read stays as it is. */
  upgradeSnapshots(sessionId: string): Promise<SnapshotUpgrade>;
  /** What each session holds in storage, and what only it holds. */
  storageUsage(): Promise<SessionUsage[]>;
  /** Drops all but the newest `keep` checkpoints of a session; returns the seqs dropped. Their data is collected later. */
  dropCheckpoints(sessionId: string, keep: number): Promise<number[]>;
  /** Deletes folders and files no snapshot refers to any more (also run in the background after deletions). */
  collectGarbage(options?: CollectOptions): Promise<GarbageReport>;

  /**
   * New session holding the entries before user message `atSeq`, the compactions made before that point, the
   * subagent tasks of the tool calls it keeps, and the workspace of that checkpoint.
   */
  forkSession(sessionId: string, atSeq: number): Promise<ForkResult>;

  /** Closes the database connection (tests, page teardown). */
  close(): void;
}
