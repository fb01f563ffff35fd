// What an address names on GitLab: the project (by its full path, groups and subgroups included), then its ref as a
// commit. With no ref it is the default branch; otherwise `refCandidates` are tried shortest first
// (`-/tree/feature/x/src` may be the branch `feature` or `feature/x`), and the first that exists is the one meant,
// the rest of the path its folder.
import { refCandidates, type RepoLocation } from '../repo-url';
import type { GitLabClient } from './api';
import { EmptyProjectError, ForbiddenError, ProjectNotFoundError, RefNotFoundError, UnexpectedAnswerError } from './errors';

export type ResolvedProject = {
  /** The numeric id later requests use. */
  id: number;
  /** The namespace and project path as GitLab spells them. */
  namespace: string;
  name: string;
  /** The ref as named (or the default branch's name when none was), and its commit's full id. */
  ref: string;
  sha: string;
  /** The subfolder to import, '' for the whole project. */
  folder: string;
  private: boolean;
};

const OBJECT_ID = /^[0-9a-f]{40}$/;

/** The project, commit and folder `location` names; throws a GitLabError that says what is wrong. */
export async function resolveProject(client: GitLabClient, location: RepoLocation): Promise<ResolvedProject> {
  const fullPath = `${location.owner}/${location.repo}`;
  const project = await client.get(`/projects/${encodeURIComponent(fullPath)}`, fullPath, [403, 404]);
  if (project.status === 404) throw new ProjectNotFoundError(fullPath, client.withToken);
  if (project.status === 403) throw new ForbiddenError(`access to ${fullPath}`, messageIn(project.body));
  const body = (project.body ?? {}) as { id?: unknown; default_branch?: unknown; path_with_namespace?: unknown; visibility?: unknown; empty_repo?: unknown };
  if (typeof body.id !== 'number') throw new UnexpectedAnswerError(fullPath, 'a project without an id');
  const named = typeof body.path_with_namespace === 'string' && body.path_with_namespace.includes('/') ? body.path_with_namespace : fullPath;
  const slash = named.lastIndexOf('/');
  const found = { id: body.id, namespace: named.slice(0, slash), name: named.slice(slash + 1), private: body.visibility !== 'public' };
  const defaultBranch = typeof body.default_branch === 'string' && body.empty_repo !== true ? body.default_branch : null;

  for (const candidate of refCandidates(location)) {
    const ref = candidate.ref ?? defaultBranch;
    if (ref === null) throw new EmptyProjectError(named);
    const commit = await client.get(`/projects/${found.id}/repository/commits/${encodeURIComponent(ref)}`, `${named} at ${ref}`, [404]);
    if (commit.status === 404) continue;
    const sha = (commit.body as { id?: unknown } | null)?.id;
    if (typeof sha !== 'string' || !OBJECT_ID.test(sha)) throw new UnexpectedAnswerError(`${named} at ${ref}`, 'a commit without an id');
    return { ...found, ref, sha, folder: candidate.folder };
  }
  if (location.treePath.length === 0) throw new EmptyProjectError(named);
  throw new RefNotFoundError(named, location.treePath.join('/'), location.treePath.length > 1);
}

function messageIn(body: unknown): string {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : '403 Forbidden';
}
