// The remote layer's public surface: clients of services outside the tab, each reached through the browser's own
// fetch with CORS, never through a server of Conch's. Its parts: repo-url.ts (what a person pastes to import a
// repo, read as host, repository, ref and folder); github/ (the import client: ref resolution, the tree listing
// finished past a truncated answer, contents through the raw host or batched GraphQL, errors that say what to do);
// gitlab/ (the import client: the project and ref resolved, its archive.zip streamed and read by the zip import, and
// the token test); repo-link.ts (the `?repo=` link that opens the page with an import filled in, and the link a
// session imported from a host copies); local-time.ts (a moment on the person's clock, for errors).
// local-folder/ (a folder picked by the app, through a FolderHandle: import under the zip import's rules, a sync
// record of what each file held, write-back that asks on conflict, refresh from disk, the edit permission).
export { parseRepoUrl, refCandidates, repoWebUrl, type KnownHosts, type RepoHost, type RepoLocation } from './repo-url';
export { repoFromLink, repoLink, withoutRepoLink, type LinkOrigin, type RepoLinkResult } from './repo-link';
export { importGitHubRepo, type GitHubImport, type GitHubImportOptions, type GitHubImportProgress, type GitHubOrigin } from './github/import-repo';
export { GitHubError, type GitHubErrorKind } from './github/errors';
export { importGitLabProject, type GitLabImport, type GitLabImportOptions, type GitLabImportProgress, type GitLabOrigin } from './gitlab/import-project';
export { DEFAULT_GITLAB_URL, gitlabApiUrl, type GitLabAccess } from './gitlab/api';
export { testGitLabToken, type GitLabTokenCheck } from './gitlab/token-check';
export { GitLabError, type GitLabErrorKind } from './gitlab/errors';
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
