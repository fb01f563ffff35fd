// The routes a merge request writes and reads (the commits API with its actions, a branch, a file's raw bytes at a
// commit, merge requests), on the mock's in-memory projects, refused as GitLab refuses them: a create over a file,
// an update of none, a start_sha onto a branch that exists, a second open merge request for one source branch, and
// 403 for a token without the api scope.
import { createHash } from 'node:crypto';
import { bytesOf, commitOf, type MockGitLabFile, type MockProject } from './fixture';

export type MockMergeRequest = { iid: number; title: string; description: string; source: string; target: string; state: 'opened' | 'closed' };

type Send = (status: number, body: unknown) => void;
type SendBytes = (bytes: Uint8Array) => void;
type Action = { action: string; file_path: string; previous_path?: string; content?: string; encoding?: string; execute_filemode?: boolean };
type CommitBody = { branch: string; commit_message: string; start_sha?: string; actions: Action[] };

const FORBIDDEN = { message: '403 Forbidden' };

/** The write side of the mock: one per server, its merge requests kept per project. */
export class MockGitLabWrites {
  private readonly requests = new WeakMap<MockProject, MockMergeRequest[]>();
  private serial = 0;

  constructor(private readonly base: () => string) {}

  mergeRequestsOf(project: MockProject): MockMergeRequest[] {
    let list = this.requests.get(project);
    if (!list) this.requests.set(project, (list = []));
    return list;
  }

  /** Answers a route below /projects/:id/ (`rest`); false when it is none of these. `canWrite`: the token has the api scope. */
  answer(project: MockProject, method: string, rest: string[], url: URL, body: string, canWrite: boolean, send: Send, sendBytes: SendBytes): boolean {
    const path = rest.join('/');
    if (method !== 'GET' && !canWrite) {
      send(403, FORBIDDEN);
      return true;
    }
    if (method === 'GET' && rest[0] === 'repository' && rest[1] === 'branches' && rest.length === 3) {
      const id = project.refs.get(rest[2]);
      send(id ? 200 : 404, id ? { name: rest[2], commit: { id, short_id: id.slice(0, 8) }, protected: false } : { message: '404 Branch Not Found' });
      return true;
    }
    if (method === 'GET' && rest[0] === 'repository' && rest[1] === 'files' && rest[3] === 'raw' && rest.length === 4) {
      const file = commitOf(project, url.searchParams.get('ref') ?? '')?.files.find((f) => f.path === rest[2]);
      if (file) sendBytes(bytesOf(file));
      else send(404, { message: '404 File Not Found' });
      return true;
    }
    if (method === 'POST' && path === 'repository/commits') {
      this.commit(project, JSON.parse(body) as CommitBody, send);
      return true;
    }
    const list = this.mergeRequestsOf(project);
    if (path === 'merge_requests' && method === 'GET') {
      const source = url.searchParams.get('source_branch');
      const state = url.searchParams.get('state');
      send(200, list.filter((mr) => (!source || mr.source === source) && (!state || mr.state === state)).map((mr) => this.body(project, mr)));
      return true;
    }
    if (path === 'merge_requests' && method === 'POST') {
      const { source_branch: source, target_branch: target, title, description } = JSON.parse(body) as Record<string, string>;
      const open = list.find((mr) => mr.source === source && mr.state === 'opened');
      if (open) send(409, { message: [`Another open merge request already exists for this source branch: !${open.iid}`] });
      else if (!project.refs.has(source)) send(422, { message: ['Source branch does not exist'] });
      else {
        const mr: MockMergeRequest = { iid: list.length + 1, title, description: description ?? '', source, target, state: 'opened' };
        list.push(mr);
        send(201, this.body(project, mr));
      }
      return true;
    }
    if (method === 'PUT' && rest[0] === 'merge_requests' && rest.length === 2) {
      const mr = list.find((m) => m.iid === Number(rest[1]));
      if (!mr) send(404, { message: '404 Not found' });
      else {
        const edit = JSON.parse(body) as { title?: string; description?: string };
        if (typeof edit.title === 'string') mr.title = edit.title;
        if (typeof edit.description === 'string') mr.description = edit.description;
        send(200, this.body(project, mr));
      }
      return true;
    }
    return false;
  }

  private commit(project: MockProject, body: CommitBody, send: Send): void {
    const head = project.refs.get(body.branch);
    if (body.start_sha && head) return send(400, { message: `A branch called '${body.branch}' already exists. Switch to that branch in order to make changes` });
    const parent = head ?? body.start_sha;
    const base = parent ? project.commits.get(parent) : undefined;
    if (!base || !parent) return send(400, { message: 'You can only create or edit files when you are on a branch' });
    const files = new Map(base.files.map((file) => [file.path, file]));
    const exists = (path: string) => files.has(path);
    for (const action of body.actions) {
      const data = action.encoding === 'base64' ? new Uint8Array(Buffer.from(action.content ?? '', 'base64')) : action.content ?? '';
      const executable = (path: string) => { const file = files.get(path); return !!file && !('symlink' in file) && file.executable === true; };
      if ((action.action === 'create' || action.action === 'move') && exists(action.file_path)) return send(400, { message: 'A file with this name already exists' });
      if (['update', 'delete', 'chmod'].includes(action.action) && !exists(action.file_path)) return send(400, { message: "A file with this name doesn't exist" });
      if (action.action === 'move' && !exists(action.previous_path ?? '')) return send(400, { message: "A file with this name doesn't exist" });
      if (action.action === 'create' || action.action === 'update') files.set(action.file_path, { path: action.file_path, data, executable: executable(action.file_path) });
      if (action.action === 'move') {
        files.set(action.file_path, { path: action.file_path, data, executable: executable(action.previous_path ?? '') });
        files.delete(action.previous_path ?? '');
      }
      if (action.action === 'delete') files.delete(action.file_path);
      const file = files.get(action.file_path);
      if (action.action === 'chmod' && file && !('symlink' in file)) files.set(action.file_path, { ...file, executable: action.execute_filemode === true });
    }
    const sha = createHash('sha1').update(`${project.fullPath}\0${parent}\0${++this.serial}`).digest('hex');
    project.commits.set(sha, { sha, ref: body.branch, files: [...files.values()] as MockGitLabFile[], parents: [parent] });
    project.refs.set(body.branch, sha);
    send(201, { id: sha, short_id: sha.slice(0, 8), title: body.commit_message.split('\n')[0], message: body.commit_message, parent_ids: [parent] });
  }

  private body(project: MockProject, mr: MockMergeRequest) {
    return {
      id: 500 + mr.iid, iid: mr.iid, project_id: project.id, title: mr.title, description: mr.description, state: mr.state,
      source_branch: mr.source, target_branch: mr.target, web_url: `${this.base()}/${project.fullPath}/-/merge_requests/${mr.iid}`,
    };
  }
}
