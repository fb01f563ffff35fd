// Public API of the storage layer. UI and app code import from here only. Its parts: db.ts (one IndexedDB
// database, a store per kind of record) and keys.ts (its key shapes); objects/, snapshots by content (blobs and
// packs by git blob id, trees/ of folders, refs, garbage collection, the migration of zip-era snapshots, storage
// figures); conventions/, the person's own skills, command templates and subagent definitions; sessions/, session records, entries, drafts, compactions, subagent tasks, locks and message search; zip/, archives
// from outside read within the safety limits; files/, what crosses the tab's edge as a file (session-file/ read
// and written in a worker with its checkpoints, the HTML export, transfer, patch, download names, the secret scan).
export type {
  FileMap,
  TokenTotals,
  SessionRecord,
  ImportedFrom,
  RepoOrigin,
  StoredPushRecord,
  NewSession,
  SessionPatch,
  SnapshotRef,
  SessionChange,
  ForkResult,
  SessionSeed,
  LoadedSession,
  FileStatus,
  FileChange,
  SecretKind,
  SecretFinding,
  ZipImportProgress,
  ZipImportOptions,
  SkipReason,
  ZipImportResult,
  SessionFileHeader,
  SessionFileContents,
  SessionStore,
  SnapshotCommit,
  StoredSnapshot,
  SessionUsage,
  GarbageReport,
  SnapshotUpgrade,
} from './types';
export { StorageFullError, ZipImportError, SessionFileError, ImportCancelledError } from './errors';

export { createSessionStore, type SessionStoreOptions } from './sessions/session-store';
export {
  repairTranscript,
  closeInterruptedReply,
  closeInterruptedTask,
  ABORTED_BY_RELOAD,
  INTERRUPTED_BY_RELOAD,
  TASK_INTERRUPTED_BY_RELOAD,
} from './sessions/repair-transcript';
export { DraftWriter, type DraftWriterOptions } from './sessions/draft-writer';
export { findCompactionProblem } from './compaction-schema';
export { findTaskProblem } from './task-schema';
export { storageEstimate, requestPersistentStorage } from './storage-info';
export { acquireSessionLock, type SessionLock } from './sessions/lock';
export { createPackageCache } from './package-cache';
export {
  createPersonalConventionsStore,
  type PersonalConventionsStore,
  type PersonalConventionsContents,
  type PersonalSkillRecord,
  type PersonalCommandRecord,
} from './conventions/personal-conventions';
export { createPersonalAgentsStore, type PersonalAgentsStore, type PersonalAgentRecord } from './conventions/personal-agents';
export { openSessionEvents, SESSION_CHANNEL, type SessionEvents } from './sessions/events';
export { findMessageProblem, isMessage } from './message-schema';
export { SessionSearchIndex, type MessageHit, type Snippet, type LoadSearchTexts } from './sessions/search';

export { readRepoZip, readFolderFiles, zipFromFiles, unzipToMap, DEFAULT_MAX_FILES, DEFAULT_MAX_RATIO, DEFAULT_MAX_TOTAL_BYTES } from './zip/repo-zip';
export { diffWorkspaces, formatPatch, decodeText } from './files/workspace-diff';
export {
  exportSessionFile,
  importSessionFile,
  sessionFileName,
  SESSION_FORMAT,
  SESSION_VERSION,
  type SessionExportInput,
} from './files/session-file/session-file';
export { downloadName, slugify, isoDay, MAX_SLUG_CHARS } from './files/download-name';
export { exportSessionHtml, escapeHtml, type HtmlSessionInfo, type DiffLine, type ToolCallView, type DescribeToolCall } from './files/html-export';
export { scanForSecrets, redactSecrets, isEnvFile, type ScanInput } from './files/secret-scan';
export {
  loadSessionExport,
  scanSessionExport,
  redactSessionExport,
  buildSessionDownload,
  importSessionIntoStore,
  importedTitle,
  IMPORTED_TITLE_SUFFIX,
  revertChange,
  SNAPSHOT_EXCLUDE,
  HISTORY_FOLDERS,
} from './files/transfer';

export { ObjectStore, MissingObjectError, type NewObjects } from './objects/object-store';
export { makeTree, type Tree, type TreeEntry } from './objects/trees/codec';
export { buildTrees, updateTree, type FlatEntry, type PathContent, type TreeSource, type BuiltTree } from './objects/trees/build';
export { diffTrees, listTree, type TreeDiff, type TreeFile } from './objects/trees/diff';
export { blobIdsOf, snapshotOfFiles, filesOfTree, identifiedFilesOfTree, zipOfTree, type ObjectReader, type FilesSnapshot } from './objects/trees/files';
export { EMPTY_TREE_ID as EMPTY_SNAPSHOT_TREE } from '../runtime/object-id';
export { snapshotOfZip } from './objects/snapshot-migration';
