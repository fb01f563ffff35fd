// What an address names on GitHub: the repository, then its ref as a commit and that commit's tree. With no ref it
// is the default branch; otherwise `refCandidates` are tried shortest first (`tree/feature/x/src` may be the branch
// `feature` or `feature/x`), and the first that exists is the one meant, the rest of the path its folder.
import { refCandidates, type RepoLocation } from '../repo-url';
import type { GitHubClient } from './api';
import { EmptyRepoError, ForbiddenError, RefNotFoundError, RepoNotFoundError, UnexpectedAnswerError } from './errors';

export type ResolvedRef = {
  /** The ref as named (or the default branch's name when none was). */
  ref: string;
  /** The commit's full id, and its tree's. */
  sha: string;
  treeSha: string;
  /** The subfolder to import, '' for the whole repository. */
  folder: string;
  defaultBranch: string;
  private: boolean;
};

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** The commit, tree and folder `location` names; throws a GitHubError that says what is wrong. */
export async function resolveRef(client: GitHubClient, location: RepoLocation): Promise<ResolvedRef> {
  const fullName = `${location.owner}/${location.repo}`;
  const base = repoPath(location);
  const repo = await client.get(base, fullName, [403, 404]);
  if (repo.status === 404) throw new RepoNotFoundError(fullName, client.withToken);
  if (repo.status === 403) throw new ForbiddenError(`access to ${fullName}`, messageIn(repo.body));
  const { default_branch: defaultBranch, private: isPrivate } = (repo.body ?? {}) as { default_branch?: unknown; private?: unknown };
  if (typeof defaultBranch !== 'string') throw new UnexpectedAnswerError(fullName, 'no default branch');

  for (const candidate of refCandidates(location)) {
    const ref = candidate.ref ?? defaultBranch;
    const commit = await client.get(`${base}/commits/${refPath(ref)}`, `${fullName} at ${ref}`, [404, 409, 422]);
    if (commit.status === 409) throw new EmptyRepoError(fullName);
    if (commit.status !== 200) continue;
    const body = (commit.body ?? {}) as { sha?: unknown; commit?: { tree?: { sha?: unknown } } };
    const sha = body.sha;
    const treeSha = body.commit?.tree?.sha;
    if (typeof sha !== 'string' || !OBJECT_ID.test(sha) || typeof treeSha !== 'string' || !OBJECT_ID.test(treeSha)) {
      throw new UnexpectedAnswerError(`${fullName} at ${ref}`, 'a commit without ids');
    }
    return { ref, sha, treeSha, folder: candidate.folder, defaultBranch, private: isPrivate === true };
  }
  throw new RefNotFoundError(fullName, location.treePath.join('/'), location.treePath.length > 1);
}

/** `/repos/OWNER/REPO`, each part escaped. */
export function repoPath(location: Pick<RepoLocation, 'owner' | 'repo'>): string {
  return `/repos/${encodeURIComponent(location.owner)}/${encodeURIComponent(location.repo)}`;
}

/** A path's segments escaped, its slashes kept (GitHub reads `commits/feature/x` as the ref `feature/x`). */
export function escapedPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

const refPath = escapedPath;

function messageIn(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? `${message.replace(/\.?$/, '.')}` : 'no reason given.';
}
