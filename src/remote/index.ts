// The remote layer's public surface: clients of services outside the tab, each reached through the browser's own
// fetch with CORS, never through a server of Conch's. Its parts: repo-url.ts (what a person pastes to import a
// repo, read as host, repository, ref and folder); repo-link.ts (the `?repo=` link that opens the page with an
// import filled in, and the link a session imported from a host copies); file-change.ts and branch-name.ts (what a
// push sends, and the branch it goes to); local-time.ts (a moment on the person's clock, for errors); github/ (the
// import client: ref resolution, the tree listing finished past a truncated answer, contents through the raw host
// or batched GraphQL; the push: a pull request made through the Git database API, resumable from its record, with a
// fork when the token cannot push; base-modes.ts, which modified files are executables; token-test.ts, Settings' Test token); gitlab/ (the import: the project and ref resolved, its archive.zip
// read by the zip import; the merge request: one commit of actions, then the MR; the token test); local-folder/ (a
// folder picked by the app, through a FolderHandle: import under the zip import's rules, a sync record of what each
// file held, write-back that asks on conflict, refresh from disk, the edit permission); mcp/ (remote MCP servers:
// connectMcpServer loads the SDK client on first use (on-demand.ts -> connect.ts); a connection's tools are the loop's
// AgentTools named mcp__<server>__<tool>, checked against the server's JSON Schema; hostile answers are capped);
// session-link/ (the `?session=` link to a shared session file on another host: the address checked, https: only,
// and the file fetched with progress under the session file size cap).
export { parseRepoUrl, refCandidates, repoWebUrl, type KnownHosts, type RepoHost, type RepoLocation, type RepoUrlResult } from './repo-url';
export { repoFromLink, repoLink, withoutRepoLink, type LinkOrigin, type RepoLinkResult } from './repo-link';
export { readSessionLink, sessionLinkParam, sessionShareLink, withoutSessionLink, type SessionLink, type SessionLinkResult } from './session-link/session-link';
export { fetchSessionFile, MAX_SESSION_LINK_BYTES, probeSessionFile, SessionLinkError, sizeProblem, type SessionFileProbe } from './session-link/fetch-session-file';
export { importGitHubRepo, type GitHubImport, type GitHubImportOptions, type GitHubImportProgress, type GitHubOrigin } from './github/import-repo';
export { GitHubError, type GitHubErrorKind } from './github/errors';
export { importGitLabProject, type GitLabImport, type GitLabImportOptions, type GitLabImportProgress, type GitLabOrigin } from './gitlab/import-project';
export { DEFAULT_GITLAB_URL, gitlabApiUrl, type GitLabAccess } from './gitlab/api';
export { describeGitLabTokenTest, testGitLabToken, testGitLabTokenForSettings, type GitLabTokenCheck } from './gitlab/token-check';
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
export { branchNameFor } from './branch-name';
export { textOf, workflowPaths, WORKFLOWS_FOLDER, type FileChange } from './file-change';
export { pushToGitHub, type GitHubPushOptions, type GitHubPushRequest, type GitHubPushResult, type PushRecord } from './github/push';
export type { PullRequestRef } from './github/pull-request';
export {
  BranchExistsError, BranchMovedError, CannotPushError, MissingPermissionError, NothingToPushError, type PushPermission, type RepoName,
} from './github/push-errors';
export { forkRepo, type ForkOptions } from './github/fork';
export { executablesAt, type BaseModes, type BaseModesAccess } from './github/base-modes';
export { describeTokenTest, testGitHubToken, type TokenTestResult } from './github/token-test';
export {
  openGitLabMergeRequest, type GitLabMergeRequestOptions, type GitLabMergeRequestRequest, type GitLabMergeRequestResult, type MergeRequestRecord, type MergeRequestRef,
} from './gitlab/merge-request';
export { MergeRequestError, type MergeRequestErrorKind } from './gitlab/merge-request-errors';
export { connectMcpServer } from './mcp/on-demand';
export { CORS_MESSAGE } from './mcp/failures';
export { registryToolName, serverNamePart } from './mcp/tool-names';
export type { McpConnection, McpConnectOptions, McpPromptInfo, McpServerConfig, McpServerState, McpToolInfo } from './mcp/types';
