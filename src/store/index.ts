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

// Functions, landing module by module (signatures are the contract):
//   createSessionStore(opts?: { prefix?: string; onChange?: (c: SessionChange) => void; indexedDB?: IDBFactory }): SessionStore
//   repairTranscript(messages: Message[]): Message[]
//   storageEstimate(): Promise<{ usage: number; quota: number } | null>
//   requestPersistentStorage(): Promise<boolean | null>       // null: the browser has no storage API
//   acquireSessionLock(id: string): Promise<{ release(): void } | null>   // null: another tab has it
//   openSessionEvents(channelName?: string): { publish(c: SessionChange): void; subscribe(fn): () => void; close(): void }
//   readRepoZip(data: Uint8Array, opts?: ZipImportOptions): Promise<ZipImportResult>
//   readFolderFiles(entries: { path: string; data: Uint8Array }[]): ZipImportResult
//   zipFromFiles(files: FileMap, opts?: { level?: 0..9 }): Uint8Array
//   unzipToMap(zip: Uint8Array): Promise<FileMap>
//   diffWorkspaces(baseline: FileMap, current: FileMap): FileChange[]
//   formatPatch(changes: FileChange[]): string
//   exportSessionFile(input): Uint8Array;  importSessionFile(data: Uint8Array): Promise<SessionFileContents>
//   exportSessionHtml(session, messages, opts?): string
//   scanForSecrets({ messages, files }): SecretFinding[];  redactSecrets(input, findings)
