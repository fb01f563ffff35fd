// The way on when a token cannot push to a repository: a fork of it in the token owner's account. GitHub makes a
// fork in the background, so after asking for it this waits (polling with backoff, bounded and abortable) until
// the fork answers; the push then goes into the fork and its pull request from there into the original.
import { GitHubClient } from './api';
import { UnexpectedAnswerError } from './errors';
import { sleep } from './in-flight';
import type { RepoName } from './push-errors';

export type ForkOptions = {
  fetch: typeof fetch;
  apiUrl: string;
  token: string;
  signal?: AbortSignal;
  /** The first wait between polls, doubled each time; default 1 s. */
  firstWaitMs?: number;
  /** The longest wait in all before giving up; default 60 s. */
  maxWaitMs?: number;
};

/** Forks `repo` into the token owner's account and resolves with the fork once GitHub answers for it. */
export async function forkRepo(repo: RepoName, options: ForkOptions): Promise<RepoName> {
  const client = new GitHubClient({ fetch: options.fetch, apiUrl: options.apiUrl, rawUrl: '', token: options.token, signal: options.signal });
  const what = `the fork of ${repo.owner}/${repo.repo}`;
  const answer = await client.write('POST', `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/forks`, {}, what, [403, 404]);
  if (answer.status === 403 || answer.status === 404) {
    throw new UnexpectedAnswerError(what, `${answer.status}: GitHub refused to fork it; forking may be off for this repository, or the token may lack Administration: write on your account`, answer.status);
  }
  const made = answer.body as { name?: unknown; owner?: { login?: unknown } } | null;
  if (typeof made?.name !== 'string' || typeof made.owner?.login !== 'string') throw new UnexpectedAnswerError(what, 'no owner or name');
  const fork = { owner: made.owner.login, repo: made.name };
  const path = `/repos/${encodeURIComponent(fork.owner)}/${encodeURIComponent(fork.repo)}`;
  let wait = options.firstWaitMs ?? 1000;
  for (let waited = 0; ; waited += wait, wait *= 2) {
    if ((await client.get(path, what, [404])).status === 200) return fork;
    if (waited + wait > (options.maxWaitMs ?? 60_000)) break;
    await sleep(wait, options.signal);
  }
  throw new UnexpectedAnswerError(what, `it was asked for, but GitHub had not made it after ${Math.round((options.maxWaitMs ?? 60_000) / 1000)} s; try again in a minute`);
}
