// What the GitLab client tests share: access to a loopback mock GitLab with Node's own fetch, and addresses to import.
import type { MockGitLab } from '../../../../e2e/mock-gitlab/server';
import type { RepoLocation } from '../../repo-url';
import type { GitLabAccess } from '../api';

export const TOKEN = 'glpat-mock';

/** Access to `mock`, with the test token when `token` is true. */
export function mockAccess(mock: MockGitLab, options: { token?: boolean | string; signal?: AbortSignal } = {}): GitLabAccess {
  const token = options.token === true ? TOKEN : options.token || undefined;
  return { fetch, baseUrl: mock.baseUrl, ...(token ? { token } : {}), signal: options.signal };
}

/** NAMESPACE/PROJECT on the mock's host, with what followed `-/tree/` split at slashes. */
export function at(mock: MockGitLab, fullPath: string, treePath = ''): RepoLocation {
  const slash = fullPath.lastIndexOf('/');
  return { host: 'gitlab', origin: mock.baseUrl, owner: fullPath.slice(0, slash), repo: fullPath.slice(slash + 1), treePath: treePath.split('/').filter(Boolean) };
}

/** The error `work` fails with; a test failure when it succeeds. */
export async function failure(work: Promise<unknown>): Promise<Error> {
  try {
    await work;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the import to fail, and it succeeded');
}
