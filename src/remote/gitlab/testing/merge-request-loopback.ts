// A tiny loopback GitLab for the merge request tests: one project's branches and files, the commits API with its
// actions (refused as GitLab refuses them: a create over a file, an update of none), raw files, and merge requests,
// in the shapes of GitLab's API docs. The import side, and a full mock, live in e2e/.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../../../e2e/loopback-http';

type File = { data: Uint8Array; executable: boolean };
type Commit = { id: string; files: Map<string, File>; parents: string[] };
export type LoopbackMergeRequest = { iid: number; title: string; description: string; source: string; target: string; state: 'opened' | 'closed' };

export type LoopbackGitLab = {
  url: string;
  project: string;
  /** The import's commit on main. */
  startSha: string;
  requests: string[];
  commits: Map<string, Commit>;
  branches: Map<string, string>;
  mergeRequests: LoopbackMergeRequest[];
  /** The files `branch` holds, as text, with a `*` after executables. */
  filesOf(branch: string): Record<string, string>;
  /** The next request of `route` (e.g. 'POST /merge_requests') answers 502. */
  failNext(route: string): void;
  /** Someone else's commit on `branch`. */
  moveBranch(branch: string): void;
  close(): Promise<void>;
};

export const GITLAB_TOKEN = 'glpat-mock';
export const READ_ONLY_TOKEN = 'glpat-read';
const encoder = new TextEncoder();

/** Starts the loopback GitLab with `files` on main of the project `group/sub/app`. */
export async function startLoopbackGitLab(files: Record<string, string | Uint8Array>): Promise<LoopbackGitLab> {
  const project = 'group/sub/app';
  const commits = new Map<string, Commit>();
  const branches = new Map<string, string>();
  const mergeRequests: LoopbackMergeRequest[] = [];
  const requests: string[] = [];
  const failing = new Set<string>();
  const addCommit = (files: Map<string, File>, parents: string[]) => {
    const id = createHash('sha1').update(`${commits.size}:${parents.join(',')}`).digest('hex');
    commits.set(id, { id, files, parents });
    return id;
  };
  const start = new Map(Object.entries(files).map(([path, data]) => [path, { data: typeof data === 'string' ? encoder.encode(data) : data, executable: false }]));
  const startSha = addCommit(start, []);
  branches.set('main', startSha);

  const server = createServer((req, res) => void handle(req, res).catch((error: unknown) => json(res, 500, { message: String(error) })));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req);
    requests.push(`${req.method} ${url.pathname.replace(`/api/v4/projects/${encodeURIComponent(project)}`, '')}`);
    const route = requests[requests.length - 1];
    if (failing.delete(route)) return json(res, 502, { message: '502 Bad Gateway' });
    const token = req.headers['private-token'];
    if (token !== GITLAB_TOKEN && token !== READ_ONLY_TOKEN) return json(res, 401, { message: '401 Unauthorized' });
    const prefix = `/api/v4/projects/${encodeURIComponent(project)}/`;
    if (!url.pathname.startsWith(prefix)) return json(res, 404, { message: '404 Project Not Found' });
    const rest = url.pathname.slice(prefix.length);
    const writes = req.method !== 'GET';
    if (writes && token === READ_ONLY_TOKEN) return json(res, 403, { message: '403 Forbidden' });

    const branch = /^repository\/branches\/(.+)$/.exec(rest);
    if (branch && req.method === 'GET') {
      const id = branches.get(decodeURIComponent(branch[1]));
      return id ? json(res, 200, { name: decodeURIComponent(branch[1]), commit: { id, short_id: id.slice(0, 8) } }) : json(res, 404, { message: '404 Branch Not Found' });
    }
    const raw = /^repository\/files\/(.+)\/raw$/.exec(rest);
    if (raw && req.method === 'GET') {
      const file = commits.get(url.searchParams.get('ref') ?? '')?.files.get(decodeURIComponent(raw[1]));
      if (!file) return json(res, 404, { message: '404 File Not Found' });
      res.writeHead(200, { 'content-type': 'text/plain' });
      return void res.end(file.data);
    }
    if (rest === 'repository/commits' && req.method === 'POST') return commit(res, JSON.parse(body) as CommitBody);
    if (rest === 'merge_requests' && req.method === 'GET') {
      const source = url.searchParams.get('source_branch');
      const state = url.searchParams.get('state');
      return json(res, 200, mergeRequests.filter((mr) => (!source || mr.source === source) && (!state || mr.state === state)).map(mrBody));
    }
    if (rest === 'merge_requests' && req.method === 'POST') {
      const { source_branch: source, target_branch: target, title, description } = JSON.parse(body) as Record<string, string>;
      const open = mergeRequests.find((mr) => mr.source === source && mr.state === 'opened');
      if (open) return json(res, 409, { message: [`Another open merge request already exists for this source branch: !${open.iid}`] });
      if (!branches.has(source)) return json(res, 422, { message: ['Source branch does not exist'] });
      const mr: LoopbackMergeRequest = { iid: mergeRequests.length + 1, title, description: description ?? '', source, target, state: 'opened' };
      mergeRequests.push(mr);
      return json(res, 201, mrBody(mr));
    }
    const edit = /^merge_requests\/(\d+)$/.exec(rest);
    if (edit && req.method === 'PUT') {
      const mr = mergeRequests.find((m) => m.iid === Number(edit[1]));
      if (!mr) return json(res, 404, { message: '404 Not found' });
      Object.assign(mr, JSON.parse(body) as Partial<LoopbackMergeRequest>);
      return json(res, 200, mrBody(mr));
    }
    json(res, 404, { message: '404 Not Found' });
  }

  type Action = { action: string; file_path: string; previous_path?: string; content?: string; encoding?: string; execute_filemode?: boolean };
  type CommitBody = { branch: string; commit_message: string; start_sha?: string; actions: Action[] };
  function commit(res: ServerResponse, body: CommitBody): void {
    const head = branches.get(body.branch);
    if (body.start_sha && head) return json(res, 400, { message: `A branch called '${body.branch}' already exists. Switch to that branch in order to make changes` });
    const parent = head ?? body.start_sha;
    const base = parent ? commits.get(parent) : undefined;
    if (!base) return json(res, 400, { message: 'You can only create or edit files when you are on a branch' });
    const files = new Map([...base.files].map(([path, file]) => [path, { ...file }]));
    for (const action of body.actions) {
      const exists = files.has(action.file_path);
      const data = () => (action.encoding === 'base64' ? new Uint8Array(Buffer.from(action.content ?? '', 'base64')) : encoder.encode(action.content ?? ''));
      if ((action.action === 'create' || action.action === 'move') && exists) return json(res, 400, { message: 'A file with this name already exists' });
      if (['update', 'delete', 'chmod'].includes(action.action) && !exists) return json(res, 400, { message: "A file with this name doesn't exist" });
      if (action.action === 'move' && !files.has(action.previous_path ?? '')) return json(res, 400, { message: "A file with this name doesn't exist" });
      if (action.action === 'create' || action.action === 'update') files.set(action.file_path, { data: data(), executable: files.get(action.file_path)?.executable ?? false });
      if (action.action === 'move') {
        files.set(action.file_path, { data: data(), executable: files.get(action.previous_path ?? '')?.executable ?? false });
        files.delete(action.previous_path ?? '');
      }
      if (action.action === 'delete') files.delete(action.file_path);
      const file = files.get(action.file_path);
      if (action.action === 'chmod' && file) file.executable = action.execute_filemode === true;
    }
    const id = addCommit(files, [parent as string]);
    branches.set(body.branch, id);
    json(res, 201, { id, short_id: id.slice(0, 8), title: body.commit_message.split('\n')[0], message: body.commit_message, parent_ids: [parent] });
  }

  const mrBody = (mr: LoopbackMergeRequest) => ({
    id: 500 + mr.iid, iid: mr.iid, project_id: 7, title: mr.title, description: mr.description, state: mr.state,
    source_branch: mr.source, target_branch: mr.target, web_url: `${origin()}/${project}/-/merge_requests/${mr.iid}`,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin(), project, startSha, requests, commits, branches, mergeRequests,
    filesOf: (branch) => {
      const files = commits.get(branches.get(branch) ?? '')?.files ?? new Map<string, File>();
      return Object.fromEntries([...files].map(([path, file]) => [`${path}${file.executable ? '*' : ''}`, new TextDecoder().decode(file.data)]));
    },
    failNext: (route) => void failing.add(route),
    moveBranch: (branch) => {
      const head = branches.get(branch) as string;
      branches.set(branch, addCommit(new Map(commits.get(head)?.files), [head]));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  res.end(JSON.stringify(body));
}
