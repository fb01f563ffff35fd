// "Test token": who a token belongs to and what it may do, from GET /user. A classic token lists its scopes in
// `x-oauth-scopes`; a fine-grained token sends none (its permissions are set per repository on GitHub).
import { ImportCancelledError } from '../../store/errors';
import { messageOf } from './api';
import { BadTokenError, OfflineError, UnexpectedAnswerError } from './errors';

export type GitHubTokenReport = { login: string; kind: 'classic'; scopes: string[] } | { login: string; kind: 'fine-grained' };

/** The token's owner and scopes; throws BadTokenError for a token GitHub refuses. */
export async function testGitHubToken(options: { fetch: typeof fetch; apiUrl: string; token: string; signal?: AbortSignal }): Promise<GitHubTokenReport> {
  let response: Response;
  try {
    response = await options.fetch(`${options.apiUrl.replace(/\/+$/, '')}/user`, {
      headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', authorization: `Bearer ${options.token}` },
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw new ImportCancelledError('Token test');
    throw new OfflineError({ cause: error });
  }
  if (response.status === 401) throw new BadTokenError();
  if (!response.ok) throw new UnexpectedAnswerError('the token test', `${response.status}: ${await messageOf(response)}`, response.status);
  const user = (await response.json()) as { login?: unknown };
  if (typeof user.login !== 'string') throw new UnexpectedAnswerError('the token test', 'no login');
  const scopes = response.headers.get('x-oauth-scopes');
  if (scopes === null) return { login: user.login, kind: 'fine-grained' };
  return { login: user.login, kind: 'classic', scopes: scopes.split(',').map((scope) => scope.trim()).filter(Boolean) };
}

/** One line for `token-result`: the login and what the token may do. */
export function describeTokenReport(report: GitHubTokenReport): string {
  if (report.kind === 'fine-grained') return `${report.login}: a fine-grained token (its permissions are set per repository on GitHub).`;
  return `${report.login}: a classic token with ${report.scopes.length > 0 ? `scopes ${report.scopes.join(', ')}` : 'no scopes (public repositories only, read only)'}.`;
}
