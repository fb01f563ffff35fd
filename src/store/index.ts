// Public API of the storage layer. UI and app code import from here only.
export type {
  FileMap,
  TokenTotals,
  SessionRecord,
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
} from './types';
export { StorageFullError, ZipImportError, SessionFileError, ImportCancelledError } from './errors';

export { createSessionStore, type SessionStoreOptions } from './session-store';
export { repairTranscript, ABORTED_BY_RELOAD } from './repair-transcript';
export { storageEstimate, requestPersistentStorage } from './storage-info';
export { acquireSessionLock, type SessionLock } from './session-lock';
export { openSessionEvents, SESSION_CHANNEL, type SessionEvents } from './session-events';
export { findMessageProblem, isMessage } from './message-schema';

// Still landing (signatures are the contract):
//   readRepoZip(data: Uint8Array, opts?: ZipImportOptions): Promise<ZipImportResult>
//   readFolderFiles(entries: { path: string; data: Uint8Array }[]): ZipImportResult
//   zipFromFiles(files: FileMap, opts?: { level?: 0..9 }): Uint8Array
//   unzipToMap(zip: Uint8Array): Promise<FileMap>
//   diffWorkspaces(baseline: FileMap, current: FileMap): FileChange[]
//   formatPatch(changes: FileChange[]): string
//   exportSessionFile(input): Uint8Array;  importSessionFile(data: Uint8Array): Promise<SessionFileContents>
//   exportSessionHtml(session, messages, opts?): string
//   scanForSecrets({ messages, files }): SecretFinding[];  redactSecrets(input, findings)
