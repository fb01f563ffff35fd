// The remote layer's public surface: clients of services outside the tab, each reached through the browser's own
// fetch with CORS, never through a server of Conch's. Its parts: repo-url.ts (what a person pastes to import a
// repo, read as host, repository, ref and folder); github/ (the import client: ref resolution, the tree listing
// finished past a truncated answer, contents through the raw host or batched GraphQL, errors that say what to do);
// local-folder/ (a folder picked by the app, through a FolderHandle: import under the zip import's rules, a sync
// record of what each file held, write-back that asks on conflict, refresh from disk, the edit permission).
export { parseRepoUrl, refCandidates, repoWebUrl, type KnownHosts, type RepoHost, type RepoLocation } from './repo-url';
export { importGitHubRepo, type GitHubImport, type GitHubImportOptions, type GitHubImportProgress, type GitHubOrigin } from './github/import-repo';
export { GitHubError, type GitHubErrorKind } from './github/errors';
export type { FolderHandle, FolderFileHandle, FolderFileSnapshot, FolderWritable } from './local-folder/folder-handle';
export { parseFolderSync, type FileStamp, type FolderSync } from './local-folder/folder-sync';
export { readFolder, type FolderImport, type FolderImportOptions, type FolderImportProgress } from './local-folder/read-folder';
export type { FolderLimits, FolderSkip, FolderSkipReason } from './local-folder/walk-folder';
export {
  applyWriteBack,
  planWriteBack,
  type ConflictChoice,
  type PlannedChange,
  type PlannedConflict,
  type WorkspaceChange,
  type WriteBackChoices,
  type WriteBackFailure,
  type WriteBackItem,
  type WriteBackPlan,
  type WriteBackRequest,
  type WriteBackResult,
} from './local-folder/write-back';
export { outsideEditsSummary, refreshFromDisk, type FolderRefresh, type OutsideEdit } from './local-folder/refresh';
export { ensurePermission, permissionMessage, type FolderPermission } from './local-folder/permission';
