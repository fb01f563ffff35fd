// "Test token" in Settings: one `GET /user` with the token, read as who it belongs to and what it may do. Classic
// tokens list their scopes in `x-oauth-scopes`; fine-grained ones send no such header (their permissions are per
// repository, and GitHub does not report them here).

export type TokenTestResult =
  | { kind: 'ok'; login: string; /** null: a fine-grained token, which reports no scopes. */ scopes: string[] | null }
  | { kind: 'rejected' | 'offline' | 'unexpected'; message: string };

/** Asks GitHub at `apiUrl` whose `token` is and which scopes it has; never throws. */
export async function testGitHubToken(access: { fetch: typeof fetch; apiUrl: string; token: string; signal?: AbortSignal }): Promise<TokenTestResult> {
  const token = access.token.trim();
  if (!token) return { kind: 'rejected', message: 'Paste a token first.' };
  let response: Response;
  try {
    response = await access.fetch(`${access.apiUrl.replace(/\/+$/, '')}/user`, {
      headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'x-github-api-version': '2022-11-28' },
      signal: access.signal,
    });
  } catch {
    return { kind: 'offline', message: `GitHub could not be reached at ${access.apiUrl}: you may be offline, or the API URL is wrong.` };
  }
  if (response.status === 401) return { kind: 'rejected', message: 'GitHub refused this token (bad credentials): it may be mistyped, expired or revoked. Create a new one on GitHub.' };
  if (!response.ok) return { kind: 'unexpected', message: `GitHub answered ${response.status} ${response.statusText}; check the API URL, or try again later.` };
  const body = (await response.json().catch(() => null)) as { login?: unknown } | null;
  if (typeof body?.login !== 'string') return { kind: 'unexpected', message: 'GitHub answered without a login; check the API URL.' };
  const header = response.headers.get('x-oauth-scopes');
  const scopes = header === null ? null : header.split(',').map((s) => s.trim()).filter(Boolean);
  return { kind: 'ok', login: body.login, scopes };
}

/** The result in one line for the Settings dialog. */
export function describeTokenTest(result: TokenTestResult): string {
  if (result.kind !== 'ok') return result.message;
  const scopes = result.scopes === null ? 'a fine-grained token (its permissions are set per repository)' : result.scopes.length ? `scopes: ${result.scopes.join(', ')}` : 'no scopes (public repositories only)';
  return `Signed in as ${result.login}; ${scopes}.`;
}
