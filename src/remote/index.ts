// The remote layer's public surface: clients of services outside the tab, each reached through the browser's own
// fetch with CORS, never through a server of Conch's. Its parts: repo-url.ts (what a person pastes to import a
// repo, read as host, repository, ref and folder); file-change.ts and branch-name.ts (what a push sends, and the
// branch it goes to); github/ (the import client: ref resolution, the tree listing finished past a truncated answer,
// contents through the raw host or batched GraphQL, errors that say what to do; and the push: a pull request made
// through the Git database API, resumable from its record, with a fork when the token cannot push, and Test token);
// gitlab/merge-request.ts (the GitLab side: one commit of actions, then the merge request).
export { parseRepoUrl, refCandidates, repoWebUrl, type KnownHosts, type RepoHost, type RepoLocation } from './repo-url';
export { importGitHubRepo, type GitHubImport, type GitHubImportOptions, type GitHubImportProgress, type GitHubOrigin } from './github/import-repo';
export { GitHubError, type GitHubErrorKind } from './github/errors';
export { branchNameFor } from './branch-name';
export { textOf, workflowPaths, WORKFLOWS_FOLDER, type FileChange } from './file-change';
export { pushToGitHub, type GitHubPushOptions, type GitHubPushRequest, type GitHubPushResult, type PushRecord } from './github/push';
export type { PullRequestRef } from './github/pull-request';
export {
  BranchExistsError, BranchMovedError, CannotPushError, MissingPermissionError, NothingToPushError, type PushPermission, type RepoName,
} from './github/push-errors';
export { forkRepo, type ForkOptions } from './github/fork';
export { describeTokenReport, testGitHubToken, type GitHubTokenReport } from './github/token-test';
export {
  openGitLabMergeRequest, type GitLabMergeRequestOptions, type GitLabMergeRequestRequest, type GitLabMergeRequestResult, type MergeRequestRecord, type MergeRequestRef,
} from './gitlab/merge-request';
export { MergeRequestError, type MergeRequestErrorKind } from './gitlab/merge-request-errors';
