// "Test token" for GitLab: whose token it is, and what it may do, so the person sees a wrong or too narrow token in
// Settings rather than in a failed import.
import { GitLabClient, type GitLabAccess } from './api';
import { UnexpectedAnswerError } from './errors';

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
