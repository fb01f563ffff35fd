// What each mock token may do, set per test: whose it is, the scopes a classic token reports, and whether it may
// write contents, pull requests and workflow files of repositories it does not own (its own, such as its forks, it
// always may). Refusals are GitHub's: a fine-grained token gets 403 "Resource not accessible by personal access
// token", a classic token without access to a repository it can read is answered 404, as GitHub answers it.
import type { MockRepo } from './fixture';
import { errorBody, NOT_FOUND } from './wire-rest';

export type MockTokenGrant = {
  login: string;
  /** A classic token's scopes (sent as x-oauth-scopes); absent for a fine-grained token, which sends none. */
  scopes?: string[];
  /** Default 'write'. */
  contents?: 'read' | 'write';
  /** Default 'write'. */
  pullRequests?: 'read' | 'write';
  /** May create or update files under .github/workflows; default true. */
  workflows?: boolean;
};

export type Refusal = { status: number; body: unknown };

export const DEFAULT_GRANT: MockTokenGrant = { login: 'octocat', scopes: ['repo', 'workflow'] };

/** Why `grant` may not write `what` into `repo`, or null when it may. */
export function refusalOf(grant: MockTokenGrant, repo: MockRepo, what: 'contents' | 'pullRequests'): Refusal | null {
  if (repo.owner.toLowerCase() === grant.login.toLowerCase()) return null;
  if ((grant[what] ?? 'write') === 'write') return null;
  const docs = what === 'contents' ? 'https://docs.github.com/rest/git' : 'https://docs.github.com/rest/pulls/pulls';
  if (grant.scopes) return { status: 404, body: NOT_FOUND(docs) };
  return { status: 403, body: errorBody(403, 'Resource not accessible by personal access token', docs) };
}

/** GitHub's refusal of a workflow file pushed by a token without the workflow scope. */
export function workflowRefusal(path: string): Refusal {
  return {
    status: 422,
    body: errorBody(422, `refusing to allow a Personal Access Token to create or update workflow \`${path}\` without \`workflow\` scope`, 'https://docs.github.com/rest/git/refs'),
  };
}
