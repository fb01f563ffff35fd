// The remote layer's public surface: clients of services outside the tab, each reached through the browser's own
// fetch with CORS, never through a server of Conch's. Its parts: repo-url.ts (what a person pastes to import a
// repo, read as host, repository, ref and folder); github/ (the import client: ref resolution, the tree listing
// finished past a truncated answer, contents through the raw host or batched GraphQL, errors that say what to do; token-test.ts: Settings' "Test token").
export { parseRepoUrl, refCandidates, repoWebUrl, type KnownHosts, type RepoHost, type RepoLocation, type RepoUrlResult } from './repo-url';
export { importGitHubRepo, type GitHubImport, type GitHubImportOptions, type GitHubImportProgress, type GitHubOrigin } from './github/import-repo';
export { GitHubError, type GitHubErrorKind } from './github/errors';
export { testGitHubToken, describeTokenTest, type TokenTestResult } from './github/token-test';
