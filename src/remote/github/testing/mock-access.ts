// What the client tests share: access to a loopback mock GitHub with Node's own fetch, and addresses to import.
import type { MockGitHub } from '../../../../e2e/mock-github/server';
import type { RepoLocation } from '../../repo-url';
import type { GitHubAccess } from '../api';
import type { GitHubError } from '../errors';

export const TOKEN = 'ghp_mock';

/** Access to `mock`, with the test token when `token` is true. */
export function mockAccess(mock: MockGitHub, options: { token?: boolean; signal?: AbortSignal } = {}): GitHubAccess {
  return { fetch, apiUrl: mock.apiUrl, rawUrl: mock.rawUrl, ...(options.token ? { token: TOKEN } : {}), signal: options.signal };
}

/** OWNER/REPO, with what followed `tree/` split at slashes. */
export function at(owner: string, repo: string, treePath = ''): RepoLocation {
  return { host: 'github', origin: 'https://github.com', owner, repo, treePath: treePath.split('/').filter(Boolean) };
}

/** The error `work` fails with (a GitHubError, when the client is right); a test failure when it succeeds. */
export async function failure(work: Promise<unknown>): Promise<GitHubError> {
  try {
    await work;
  } catch (error) {
    return error as GitHubError;
  }
  throw new Error('expected the import to fail, and it succeeded');
}
