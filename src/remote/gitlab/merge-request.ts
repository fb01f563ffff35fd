// Sending a session's work back to GitLab as a merge request: one commit through the commits API (all the changed
// files as `actions[]`, from the imported commit as `start_sha` on the first push), then the merge request into the
// imported ref. The token goes as PRIVATE-TOKEN.
//
// Push again: a commit on the branch (no start_sha), its actions planned against what this session last pushed,
// and the open merge request found by its source branch and brought up to date. If someone else pushed to the
// branch meanwhile, it stops unless the person confirmed (`overwrite`); the commit then goes on top of theirs.
// The record the caller stores (`onRecord`) lets a retry after a failure skip the commit if it was made.
import { ImportCancelledError } from '../../store/errors';
import type { FileChange } from '../file-change';
import { plannedActions, type PushedFile } from './merge-request-actions';
import { badToken, branchExists, branchMoved, cannotPush, MergeRequestError, nothingToPush, offline, unexpected } from './merge-request-errors';

export type MergeRequestRef = { iid: number; url: string };

/** What this session pushed to the branch; plain data, to be stored with the session. */
export type MergeRequestRecord = {
  project: string;
  branch: string;
  /** The commit this session last made on the branch. */
  pushed?: string;
  /** What the branch holds, by path, where it differs from the imported commit. */
  files: Record<string, PushedFile>;
  mergeRequest?: MergeRequestRef;
};

export type GitLabMergeRequestRequest = {
  /** The imported commit: the project (its full path, `group/subgroup/project`, or its numeric id), ref and sha. */
  origin: { project: string; ref: string; sha: string };
  changes: readonly FileChange[];
  branch: string;
  message: string;
  title: string;
  body: string;
  /** A merge request already open keeps its title and description (a push from the shell). */
  keepOpenText?: boolean;
};

export type GitLabMergeRequestOptions = {
  fetch: typeof fetch;
  /** e.g. https://gitlab.com, or a self-managed host. */
  gitlabUrl: string;
  token: string;
  signal?: AbortSignal;
  record?: MergeRequestRecord;
  onRecord?: (record: MergeRequestRecord) => void;
  overwrite?: boolean;
};

export type GitLabMergeRequestResult = { mergeRequest: MergeRequestRef & { opened: boolean }; commit: string; record: MergeRequestRecord; requests: number };

type Answer = { status: number; body: unknown };

/** Commits the changes to the branch and opens or updates its merge request; throws MergeRequestErrors. */
export async function openGitLabMergeRequest(request: GitLabMergeRequestRequest, options: GitLabMergeRequestOptions): Promise<GitLabMergeRequestResult> {
  const { origin, branch } = request;
  const project = `/projects/${encodeURIComponent(origin.project)}`;
  let requests = 0;
  const call = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Answer> => {
    requests++;
    return send(options, method, `${project}${path}`, body);
  };
  const same = options.record && options.record.project === origin.project && options.record.branch === branch;
  let record: MergeRequestRecord = same && options.record ? structuredClone(options.record) : { project: origin.project, branch, files: {} };
  const save = (next: MergeRequestRecord) => {
    record = next;
    options.onRecord?.(structuredClone(record));
  };

  const head = record.pushed ? await branchHead(call, branch) : null;
  if (head !== null && head !== record.pushed && !options.overwrite) throw branchMoved(branch, origin.project);
  const pushedFiles = head === null ? {} : record.files;
  const baseline = async (path: string) => {
    const answer = await call('GET', `/repository/files/${encodeURIComponent(path)}/raw?ref=${origin.sha}`);
    if (answer.status !== 200 || !(answer.body instanceof Uint8Array)) throw unexpected(`the imported ${path}`, answer.status, '');
    return answer.body;
  };
  const { actions, files } = await plannedActions(request.changes, pushedFiles, baseline);

  let commit = head;
  if (actions.length > 0) {
    const start = head === null ? { start_sha: origin.sha } : {};
    const answer = await call('POST', '/repository/commits', { branch, commit_message: request.message, actions, ...start });
    if (answer.status === 400 && /already exists/i.test(messageIn(answer.body))) throw branchExists(branch, origin.project);
    if (answer.status !== 201) throw refused(answer, origin.project, 'push', 'the commit');
    commit = idIn(answer.body, 'the commit');
    save({ ...record, pushed: commit, files });
  } else if (commit === null) {
    throw nothingToPush();
  }

  const text = { title: request.title, description: request.body, keep: request.keepOpenText === true };
  const known = head !== null || record.mergeRequest !== undefined;
  const mergeRequest = (known ? await findOpen(call, branch, origin.ref, text) : null) ?? (await openNew(call, branch, origin, text));
  if (record.mergeRequest?.iid !== mergeRequest.iid) save({ ...record, mergeRequest: { iid: mergeRequest.iid, url: mergeRequest.url } });
  return { mergeRequest, commit: commit as string, record: structuredClone(record), requests };
}

type Call = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => Promise<Answer>;
type MergeRequestText = { title: string; description: string; keep: boolean };

async function branchHead(call: Call, branch: string): Promise<string | null> {
  const answer = await call('GET', `/repository/branches/${encodeURIComponent(branch)}`);
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw refused(answer, '', 'push', `the branch ${branch}`);
  const id = (answer.body as { commit?: { id?: unknown } } | null)?.commit?.id;
  if (typeof id !== 'string') throw unexpected(`the branch ${branch}`, answer.status, 'no commit');
  return id;
}

async function openNew(call: Call, branch: string, origin: { project: string; ref: string }, text: MergeRequestText): Promise<MergeRequestRef & { opened: boolean }> {
  const answer = await call('POST', '/merge_requests', { source_branch: branch, target_branch: origin.ref, title: text.title, description: text.description });
  if (answer.status === 201) return { ...refOf(answer.body), opened: true };
  // One open merge request per source branch: one opened outside Conch is this push's.
  if (answer.status === 409) {
    const found = await findOpen(call, branch, origin.ref, text);
    if (found) return found;
  }
  throw refused(answer, origin.project, 'merge request', 'the merge request');
}

async function findOpen(call: Call, branch: string, target: string, text: MergeRequestText): Promise<(MergeRequestRef & { opened: false }) | null> {
  const answer = await call('GET', `/merge_requests?source_branch=${encodeURIComponent(branch)}&target_branch=${encodeURIComponent(target)}&state=opened`);
  if (answer.status !== 200 || !Array.isArray(answer.body)) throw unexpected('the open merge requests', answer.status, messageIn(answer.body));
  const open = answer.body[0] as { iid?: number; title?: string; description?: string | null } | undefined;
  if (!open || typeof open.iid !== 'number') return null;
  if (text.keep || (open.title === text.title && (open.description ?? '') === text.description)) return { ...refOf(open), opened: false };
  const updated = await call('PUT', `/merge_requests/${open.iid}`, { title: text.title, description: text.description });
  if (updated.status !== 200) throw refused(updated, '', 'merge request', `merge request !${open.iid}`);
  return { ...refOf(updated.body), opened: false };
}

function refused(answer: Answer, project: string, what: 'push' | 'merge request', asked: string): MergeRequestError {
  if (answer.status === 401) return badToken();
  if (answer.status === 403) return cannotPush(project, what);
  return unexpected(asked, answer.status, messageIn(answer.body));
}

async function send(options: GitLabMergeRequestOptions, method: string, path: string, body: unknown): Promise<Answer> {
  if (options.signal?.aborted) throw new ImportCancelledError('Merge request');
  let response: Response;
  try {
    response = await options.fetch(`${options.gitlabUrl.replace(/\/+$/, '')}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': options.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch {
    if (options.signal?.aborted) throw new ImportCancelledError('Merge request');
    throw offline();
  }
  if (path.includes('/raw?')) return { status: response.status, body: new Uint8Array(await response.arrayBuffer()) };
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
}

function messageIn(body: unknown): string {
  const message = (body as { message?: unknown; error?: unknown } | null)?.message ?? (body as { error?: unknown } | null)?.error;
  if (typeof message === 'string') return message;
  return Array.isArray(message) ? message.join(' ') : typeof body === 'string' ? body.slice(0, 200) : '';
}

function idIn(body: unknown, what: string): string {
  const id = (body as { id?: unknown } | null)?.id;
  if (typeof id !== 'string') throw unexpected(what, 201, 'no id');
  return id;
}

function refOf(body: unknown): MergeRequestRef {
  const mr = body as { iid?: unknown; web_url?: unknown } | null;
  if (typeof mr?.iid !== 'number' || typeof mr.web_url !== 'string') throw unexpected('the merge request', 200, 'no iid or link');
  return { iid: mr.iid, url: mr.web_url };
}
