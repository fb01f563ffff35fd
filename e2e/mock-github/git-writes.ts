// The Git database writes a push makes, in GitHub's wire formats (the OpenAPI description's `short-blob`,
// `git-tree`, `git-commit`, `git-ref`): blobs (utf-8 or base64), a tree edited onto a `base_tree` (inline content,
// `sha: null` deletions, modes kept), commits with parents, and refs created or moved (a fast-forward unless
// `force`). Ids are git's own, so what a client computes locally matches what the mock answers.
import { gitBlobId } from '../../src/runtime/object-id';
import { addCommitObject, addTreeObject, type MockCommit, type MockRepo, type MockTreeEntry, type TreeMode } from './fixture';
import { refusalOf, workflowRefusal, type MockTokenGrant } from './grants';
import { errorBody, NOT_FOUND } from './wire-rest';

export type Send = (status: number, payload: unknown) => void;
export type WriteContext = { api: string; web: string };

const DOCS = 'https://docs.github.com/rest/git';
const PERSON = { name: 'Mock Octocat', email: 'octocat@example.com', date: '2023-11-14T22:13:20Z' };
const MODES = new Set(['100644', '100755', '120000', '040000', '160000']);
const WORKFLOWS = '.github/workflows/';

type FlatEntry = { mode: TreeMode; type: MockTreeEntry['type']; sha: string; size?: number };

/** Answers a Git database route below /repos/{o}/{r}/ (`rest`); false when `rest` is not one. */
export async function answerGitRoute(
  context: WriteContext, repo: MockRepo, grant: MockTokenGrant | null, method: string, rest: string, bodyText: string, send: Send,
): Promise<boolean> {
  const readCommit = /^git\/commits\/([0-9a-f]{40})$/.exec(rest);
  if (method === 'GET' && readCommit) {
    const commit = repo.commits.get(readCommit[1]);
    send(commit ? 200 : 404, commit ? gitCommitBody(context, repo, commit) : NOT_FOUND(`${DOCS}/commits#get-a-commit-object`));
    return true;
  }
  const readRef = /^git\/ref\/heads\/(.+)$/.exec(rest);
  if (method === 'GET' && readRef) {
    const sha = repo.branches.get(readRef[1]);
    send(sha ? 200 : 404, sha ? refBody(context, repo, readRef[1], sha) : NOT_FOUND(`${DOCS}/refs#get-a-reference`));
    return true;
  }
  const moveRef = /^git\/refs\/heads\/(.+)$/.exec(rest);
  const writes = (method === 'POST' && ['git/blobs', 'git/trees', 'git/commits', 'git/refs'].includes(rest)) || (method === 'PATCH' && moveRef);
  if (!writes) return false;
  const write = writeRequest(grant, repo, 'contents', bodyText, DOCS, send);
  if (!write) return true;
  const { body } = write;
  if (rest === 'git/blobs') await createBlob(context, repo, body, send);
  else if (rest === 'git/trees') await createTree(context, repo, body, send);
  else if (rest === 'git/commits') createCommit(context, repo, body, send);
  else if (rest === 'git/refs') await createRef(context, repo, write.grant, body, send);
  else if (moveRef) await updateRef(context, repo, write.grant, moveRef[1], body, send);
  return true;
}

async function createBlob(context: WriteContext, repo: MockRepo, body: Record<string, unknown>, send: Send): Promise<void> {
  if (typeof body.content !== 'string') return send(422, errorBody(422, 'Invalid request.\n\n"content" wasn\'t supplied.', `${DOCS}/blobs#create-a-blob`));
  const encoding = body.encoding ?? 'utf-8';
  if (encoding !== 'utf-8' && encoding !== 'base64') return send(422, errorBody(422, `encoding must be utf-8 or base64`, `${DOCS}/blobs#create-a-blob`));
  const data = encoding === 'base64' ? new Uint8Array(Buffer.from(body.content, 'base64')) : new TextEncoder().encode(body.content);
  const sha = await gitBlobId(data);
  repo.blobs.set(sha, data);
  send(201, { url: `${repoApi(context, repo)}/git/blobs/${sha}`, sha });
}

async function createTree(context: WriteContext, repo: MockRepo, body: Record<string, unknown>, send: Send): Promise<void> {
  const docs = `${DOCS}/trees#create-a-tree`;
  const flat = new Map<string, FlatEntry>();
  if (body.base_tree !== undefined) {
    if (typeof body.base_tree !== 'string' || !repo.trees.has(body.base_tree)) return send(422, errorBody(422, 'base_tree is not a valid tree oid', docs));
    flatten(repo, body.base_tree, '', flat);
  }
  if (!Array.isArray(body.tree)) return send(422, errorBody(422, 'Invalid tree info', docs));
  for (const item of body.tree as Record<string, unknown>[]) {
    const { path, mode } = item;
    if (typeof path !== 'string' || path === '' || path.startsWith('/') || typeof mode !== 'string' || !MODES.has(mode)) {
      return send(422, errorBody(422, 'Invalid tree info', docs));
    }
    if (item.sha === null) {
      for (const key of [...flat.keys()]) if (key === path || key.startsWith(`${path}/`)) flat.delete(key);
    } else if (typeof item.content === 'string') {
      const data = new TextEncoder().encode(item.content);
      const sha = await gitBlobId(data);
      repo.blobs.set(sha, data);
      flat.set(path, { mode: mode as TreeMode, type: 'blob', sha, size: data.length });
    } else if (typeof item.sha === 'string' && repo.blobs.has(item.sha)) {
      flat.set(path, { mode: mode as TreeMode, type: 'blob', sha: item.sha, size: repo.blobs.get(item.sha)?.length });
    } else {
      return send(422, errorBody(422, `tree.sha ${String(item.sha)} is not a valid blob`, docs));
    }
  }
  const sha = await buildTree(repo, flat);
  const listing = (repo.trees.get(sha) ?? []).map((e) => ({ path: e.name, mode: e.mode, type: e.type, sha: e.sha, ...(e.size === undefined ? {} : { size: e.size }) }));
  send(201, { sha, url: `${repoApi(context, repo)}/git/trees/${sha}`, tree: listing, truncated: false });
}

function createCommit(context: WriteContext, repo: MockRepo, body: Record<string, unknown>, send: Send): void {
  const docs = `${DOCS}/commits#create-a-commit`;
  const parents = Array.isArray(body.parents) ? body.parents : [];
  if (typeof body.message !== 'string' || typeof body.tree !== 'string') return send(422, errorBody(422, 'Invalid request.', docs));
  if (!repo.trees.has(body.tree)) return send(422, errorBody(422, 'Tree SHA does not exist', docs));
  if (!parents.every((parent) => typeof parent === 'string' && repo.commits.has(parent))) return send(422, errorBody(422, 'Parent SHA does not exist or is not a commit object', docs));
  const message = body.message.endsWith('\n') ? body.message : `${body.message}\n`;
  const commit = addCommitObject(repo, body.tree, parents as string[], message);
  send(201, gitCommitBody(context, repo, commit));
}

async function createRef(context: WriteContext, repo: MockRepo, grant: MockTokenGrant, body: Record<string, unknown>, send: Send): Promise<void> {
  const docs = `${DOCS}/refs#create-a-reference`;
  const branch = typeof body.ref === 'string' ? /^refs\/heads\/(.+)$/.exec(body.ref)?.[1] : undefined;
  if (!branch || typeof body.sha !== 'string') return send(422, errorBody(422, 'Reference name must start with refs/heads/ (this mock keeps branches only)', docs));
  if (repo.branches.has(branch)) return send(422, errorBody(422, 'Reference already exists', docs));
  const commit = repo.commits.get(body.sha);
  if (!commit) return send(422, errorBody(422, 'Object does not exist', docs));
  const workflow = grant.workflows === false ? await workflowChange(repo, commit) : null;
  if (workflow) return send(workflowRefusal(workflow).status, workflowRefusal(workflow).body);
  repo.branches.set(branch, commit.sha);
  send(201, refBody(context, repo, branch, commit.sha));
}

async function updateRef(context: WriteContext, repo: MockRepo, grant: MockTokenGrant, branch: string, body: Record<string, unknown>, send: Send): Promise<void> {
  const docs = `${DOCS}/refs#update-a-reference`;
  const head = repo.branches.get(branch);
  if (!head) return send(422, errorBody(422, 'Reference does not exist', docs));
  const commit = typeof body.sha === 'string' ? repo.commits.get(body.sha) : undefined;
  if (!commit) return send(422, errorBody(422, 'Object does not exist', docs));
  if (body.force !== true && !isAncestor(repo, head, commit.sha)) return send(422, errorBody(422, 'Update is not a fast forward', docs));
  const workflow = grant.workflows === false ? await workflowChange(repo, commit) : null;
  if (workflow) return send(workflowRefusal(workflow).status, workflowRefusal(workflow).body);
  repo.branches.set(branch, commit.sha);
  send(200, refBody(context, repo, branch, commit.sha));
}

/** The first workflow file `commit` adds, changes or removes against its first parent, if any. */
async function workflowChange(repo: MockRepo, commit: MockCommit): Promise<string | null> {
  const after = new Map<string, FlatEntry>();
  const before = new Map<string, FlatEntry>();
  flatten(repo, commit.treeSha, '', after);
  const parent = commit.parents?.[0] ? repo.commits.get(commit.parents[0]) : undefined;
  if (parent) flatten(repo, parent.treeSha, '', before);
  for (const path of new Set([...after.keys(), ...before.keys()])) {
    if (path.startsWith(WORKFLOWS) && (after.get(path)?.sha !== before.get(path)?.sha || after.get(path)?.mode !== before.get(path)?.mode)) return path;
  }
  return null;
}

/** True when `ancestor` is `commit` or reached from it through parents. */
export function isAncestor(repo: MockRepo, ancestor: string, commit: string): boolean {
  const seen = new Set<string>();
  const queue = [commit];
  while (queue.length > 0) {
    const sha = queue.pop() as string;
    if (sha === ancestor) return true;
    if (seen.has(sha)) continue;
    seen.add(sha);
    queue.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  return false;
}

function flatten(repo: MockRepo, treeSha: string, base: string, out: Map<string, FlatEntry>): void {
  for (const entry of repo.trees.get(treeSha) ?? []) {
    if (entry.type === 'tree') flatten(repo, entry.sha, `${base}${entry.name}/`, out);
    else out.set(`${base}${entry.name}`, { mode: entry.mode, type: entry.type, sha: entry.sha, size: entry.size });
  }
}

async function buildTree(repo: MockRepo, flat: Map<string, FlatEntry>): Promise<string> {
  const files: MockTreeEntry[] = [];
  const folders = new Map<string, Map<string, FlatEntry>>();
  for (const [path, entry] of flat) {
    const slash = path.indexOf('/');
    if (slash < 0) files.push({ name: path, ...entry });
    else {
      const name = path.slice(0, slash);
      if (!folders.has(name)) folders.set(name, new Map());
      folders.get(name)?.set(path.slice(slash + 1), entry);
    }
  }
  for (const [name, inner] of folders) files.push({ name, mode: '040000', type: 'tree', sha: await buildTree(repo, inner) });
  return addTreeObject(repo, files);
}

function gitCommitBody(context: WriteContext, repo: MockRepo, commit: MockCommit): unknown {
  const base = repoApi(context, repo);
  return {
    sha: commit.sha,
    node_id: `C_mock${commit.sha.slice(0, 12)}`,
    url: `${base}/git/commits/${commit.sha}`,
    html_url: `${context.web}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    author: PERSON,
    committer: PERSON,
    tree: { sha: commit.treeSha, url: `${base}/git/trees/${commit.treeSha}` },
    message: commit.message.trimEnd(),
    parents: (commit.parents ?? []).map((sha) => ({ sha, url: `${base}/git/commits/${sha}`, html_url: `${context.web}/${repo.owner}/${repo.name}/commit/${sha}` })),
    verification: { verified: false, reason: 'unsigned', signature: null, payload: null },
  };
}

function refBody(context: WriteContext, repo: MockRepo, branch: string, sha: string): unknown {
  const base = repoApi(context, repo);
  return { ref: `refs/heads/${branch}`, node_id: `REF_mock${sha.slice(0, 8)}`, url: `${base}/git/refs/heads/${branch}`, object: { sha, type: 'commit', url: `${base}/git/commits/${sha}` } };
}

const repoApi = (context: WriteContext, repo: MockRepo) => `${context.api}/repos/${repo.owner}/${repo.name}`;

/** A write's token and JSON body, once the token may make it; otherwise GitHub's refusal is sent and the answer is null. */
export function writeRequest(
  grant: MockTokenGrant | null, repo: MockRepo, what: 'contents' | 'pullRequests', bodyText: string, docs: string, send: Send,
): { grant: MockTokenGrant; body: Record<string, unknown> } | null {
  if (!grant) {
    send(401, errorBody(401, 'Requires authentication', docs));
    return null;
  }
  const refused = refusalOf(grant, repo, what);
  if (refused) {
    send(refused.status, refused.body);
    return null;
  }
  const body = parseJson(bodyText);
  if (!body) {
    send(400, errorBody(400, 'Problems parsing JSON', docs));
    return null;
  }
  return { grant, body };
}

export function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
