// GitLab's REST answers as the mock writes them: the fields of GitLab's API docs an import or a token check reads,
// and a few beside them so a client sees the real shapes.
import type { MockCommit, MockProject } from './fixture';

const CREATED = '2023-11-14T22:13:20.000Z';

export const PROJECT_NOT_FOUND = { message: '404 Project Not Found' };
export const COMMIT_NOT_FOUND = { message: '404 Commit Not Found' };
export const FILE_NOT_FOUND = { message: '404 File Not Found' };
export const UNAUTHORIZED = { message: '401 Unauthorized' };
export const ROUTE_NOT_FOUND = { error: '404 Not Found' };

/** GET /projects/:id */
export function projectBody(base: string, project: MockProject) {
  const webUrl = `${base}/${project.fullPath}`;
  return {
    id: project.id,
    description: null,
    name: project.name,
    name_with_namespace: project.fullPath.split('/').join(' / '),
    path: project.name,
    path_with_namespace: project.fullPath,
    created_at: CREATED,
    default_branch: project.defaultBranch,
    visibility: project.private ? 'private' : 'public',
    web_url: webUrl,
    http_url_to_repo: `${webUrl}.git`,
    empty_repo: project.defaultBranch === null,
    archived: false,
    namespace: {
      id: 1000 + project.id,
      name: project.namespace.split('/').at(-1),
      path: project.namespace.split('/').at(-1),
      kind: 'group',
      full_path: project.namespace,
      web_url: `${base}/groups/${project.namespace}`,
    },
    _links: { self: `${base}/api/v4/projects/${project.id}` },
  };
}

/** GET /projects/:id/repository/commits/:sha */
export function commitBody(base: string, project: MockProject, commit: MockCommit) {
  return {
    id: commit.sha,
    short_id: commit.sha.slice(0, 8),
    created_at: CREATED,
    parent_ids: [],
    title: `Snapshot of ${commit.ref}`,
    message: `Snapshot of ${commit.ref}\n`,
    author_name: 'Mock Tanuki',
    author_email: 'tanuki@example.com',
    authored_date: CREATED,
    committer_name: 'Mock Tanuki',
    committer_email: 'tanuki@example.com',
    committed_date: CREATED,
    web_url: `${base}/${project.fullPath}/-/commit/${commit.sha}`,
  };
}

/** GET /user */
export function userBody(base: string, id: number, username: string) {
  return { id, username, name: username, state: 'active', web_url: `${base}/${username}` };
}

/** GET /personal_access_tokens/self */
export function tokenBody(id: number, userId: number, scopes: string[]) {
  return { id, name: 'conch', revoked: false, created_at: CREATED, scopes, user_id: userId, active: true, expires_at: null };
}
