// "Test token" for GitLab: whose token it is, and what it may do, so the person sees a wrong or too narrow token in
// Settings rather than in a failed import.
import { GitLabClient, type GitLabAccess } from './api';
import type { TokenTestResult } from '../github/token-test';
import { GitLabError, UnexpectedAnswerError } from './errors';

export type GitLabTokenCheck = {
  username: string;
  /** The token's scopes (`read_api`, `read_repository`, `api`, …); null when GitLab does not say (not a personal, group or project token). */
  scopes: string[] | null;
};

/** The login and scopes of `access.token`; throws BadTokenError when GitLab refuses it, another GitLabError otherwise. */
export async function testGitLabToken(access: GitLabAccess & { token: string }): Promise<GitLabTokenCheck> {
  const client = new GitLabClient(access);
  const user = await client.get('/user', 'the token check');
  const username = (user.body as { username?: unknown } | null)?.username;
  if (typeof username !== 'string') throw new UnexpectedAnswerError('the token check', 'a user without a username');
  const self = await client.get('/personal_access_tokens/self', "the token's scopes", [403, 404]);
  const scopes = (self.body as { scopes?: unknown } | null)?.scopes;
  const named = self.status === 200 && Array.isArray(scopes) && scopes.every((s) => typeof s === 'string');
  return { username, scopes: named ? (scopes as string[]) : null };
}

/** Settings' "Test token" for GitLab: the check as one result, never thrown, in the shape GitHub's test has. */
export async function testGitLabTokenForSettings(access: GitLabAccess & { token: string }): Promise<TokenTestResult> {
  if (!access.token.trim()) return { kind: 'rejected', message: 'Paste a token first.' };
  try {
    const check = await testGitLabToken({ ...access, token: access.token.trim() });
    return { kind: 'ok', login: check.username, scopes: check.scopes };
  } catch (error) {
    const kind = error instanceof GitLabError ? error.kind : 'unexpected';
    const message = error instanceof Error ? error.message : String(error);
    return { kind: kind === 'bad-token' ? 'rejected' : kind === 'offline' ? 'offline' : 'unexpected', message };
  }
}

/** The GitLab result in one line: who, which scopes, and whether merge requests will work (they need `api`). */
export function describeGitLabTokenTest(result: TokenTestResult): string {
  if (result.kind !== 'ok') return result.message;
  if (result.scopes === null) return `Signed in as ${result.login}; GitLab does not list this token's scopes.`;
  const scopes = result.scopes.length ? `scopes: ${result.scopes.join(', ')}` : 'no scopes';
  const push = result.scopes.includes('api') ? '' : ' Opening merge requests needs the api scope.';
  return `Signed in as ${result.login}; ${scopes}.${push}`;
}
