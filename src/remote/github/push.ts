// Sending a session's work back to GitHub as a pull request, through the Git database API (no git protocol, which
// has no CORS): a blob for each binary file only, one tree with the text inline on the imported commit's tree, a
// commit, the branch, then the pull request into the imported ref. 30 changed text files take 5 requests.
//
// Push again: the next push from the session makes a commit on top of the branch (the branch's files become the
// workspace's) and moves the branch as a fast-forward, never by force; the open pull request is found and updated.
// If someone else pushed to the branch meanwhile, it stops with BranchMovedError; with `overwrite` (the person
// confirmed), the new commit still goes on top of their commits, so nothing of theirs is lost from the history.
//
// Resume: each step made is written into a small record that the caller stores (`onRecord`); given it back after a
// failure, a push reuses the blobs, tree and commit it made and continues from the step that failed.
import { gitBlobId } from '../../runtime/object-id';
import { base64Of } from '../base64';
import { workflowPaths, type FileChange } from '../file-change';
import { GitHubClient, type Answer } from './api';
import { UnexpectedAnswerError } from './errors';
import { openOrUpdatePull, type PullRequestRef } from './pull-request';
import { BranchMovedError, NothingToPushError, refusedWrite, type RepoName, type WriteStep } from './push-errors';
import { binaryFiles, treeEdits, treeRequestKey } from './tree-edit';

/** What a push has made so far; plain data, to be stored with the session. */
export type PushRecord = {
  /** Where the branch lives: the origin, or the person's fork of it. */
  target: RepoName;
  branch: string;
  /** The imported commit's tree, the base of every push's tree. */
  baseTree?: string;
  /** Ids of the blobs made for binary files. */
  blobs: string[];
  tree?: { key: string; sha: string };
  commit?: { sha: string; tree: string; parent: string };
  /** The commit this session last set the branch to. */
  pushed?: string;
  pullRequest?: PullRequestRef;
};

export type GitHubPushRequest = {
  /** The imported commit: its repository, the ref the pull request goes into, and its sha; `folder`, when only
   * that folder was imported (the changes' paths are relative to it). */
  origin: { owner: string; repo: string; ref: string; sha: string; folder?: string };
  changes: readonly FileChange[];
  branch: string;
  message: string;
  title: string;
  body: string;
  /** The fork to push into (forkRepo's answer); the pull request then goes from it into the origin. */
  fork?: RepoName;
  /** A pull request already open keeps its title and body (a push from the shell). */
  keepOpenText?: boolean;
};

export type GitHubPushOptions = {
  fetch: typeof fetch;
  apiUrl: string;
  token: string;
  signal?: AbortSignal;
  /** What an earlier push of this session left, finished or not; ignored if it was for another branch or repo. */
  record?: PushRecord;
  /** Called with a copy of the record each time a step made something. */
  onRecord?: (record: PushRecord) => void;
  /** The person confirmed pushing on top of commits someone else pushed to the branch. */
  overwrite?: boolean;
};

export type GitHubPushResult = {
  pullRequest: PullRequestRef & { opened: boolean };
  /** The commit the branch now holds. */
  commit: string;
  record: PushRecord;
  /** API requests this push made. */
  requests: number;
};

const REFUSALS = [403, 404, 422];

/** Pushes `request.changes` to its branch and opens or updates its pull request; throws GitHubErrors that say what to do. */
export async function pushToGitHub(request: GitHubPushRequest, options: GitHubPushOptions): Promise<GitHubPushResult> {
  if (request.changes.length === 0) throw new NothingToPushError();
  const { origin, branch } = request;
  const changes = inRepo(request.changes, origin.folder ?? '');
  const target = request.fork ?? { owner: origin.owner, repo: origin.repo };
  const client = new GitHubClient({ fetch: options.fetch, apiUrl: options.apiUrl, rawUrl: '', token: options.token, signal: options.signal });
  const repoPath = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  const facts = { target, origin, branch, workflows: workflowPaths(changes) };
  const refused = (step: WriteStep) => (answer: Answer) => refusedWrite(answer, step, facts);
  let record = usableRecord(options.record, target, branch) ?? { target, branch, blobs: [] };
  const save = (next: PushRecord) => {
    record = next;
    options.onRecord?.(structuredClone(record));
  };

  const head = record.pushed ? await branchHead(client, repoPath, branch) : null;
  const ours = head !== null && (head === record.pushed || head === record.commit?.sha);
  if (head !== null && !ours && !options.overwrite) throw new BranchMovedError(branch, target, head);
  const parent = head ?? origin.sha;

  const baseTree = record.baseTree ?? (await treeOfCommit(client, repoPath, origin.sha));
  if (!record.baseTree) save({ ...record, baseTree });

  const blobs = new Map<string, string>();
  await Promise.all(binaryFiles(changes).map(async ({ path, data }) => {
    const id = await gitBlobId(data);
    blobs.set(path, id);
    if (record.blobs.includes(id)) return;
    const answer = await client.write('POST', `${repoPath}/git/blobs`, { content: base64Of(data), encoding: 'base64' }, `the blob of ${path}`, REFUSALS);
    if (answer.status !== 201) throw refused('contents')(answer);
    if ((answer.body as { sha?: unknown } | null)?.sha !== id) throw new UnexpectedAnswerError(`the blob of ${path}`, 'another id than its bytes have');
    save({ ...record, blobs: [...record.blobs, id] });
  }));

  const treeRequest = { base_tree: baseTree, tree: treeEdits(changes, (path) => blobs.get(path) ?? '') };
  const key = await treeRequestKey(treeRequest);
  let tree = record.tree?.key === key ? record.tree.sha : null;
  if (tree === null) {
    const answer = await client.write('POST', `${repoPath}/git/trees`, treeRequest, 'the tree of the changed files', REFUSALS);
    if (answer.status !== 201) throw refused('contents')(answer);
    tree = shaIn(answer.body, 'the tree of the changed files');
    save({ ...record, tree: { key, sha: tree } });
  }

  // The branch already holds this tree when a retry follows a push that set the branch, or nothing changed since.
  const upToDate = record.commit?.sha === parent && record.commit.tree === tree;
  const madeBefore = record.commit?.tree === tree && record.commit.parent === parent ? record.commit.sha : null;
  let commit = upToDate ? parent : madeBefore;
  if (commit === null) {
    const answer = await client.write('POST', `${repoPath}/git/commits`, { message: request.message, tree, parents: [parent] }, 'the commit', REFUSALS);
    if (answer.status !== 201) throw refused('contents')(answer);
    commit = shaIn(answer.body, 'the commit');
    save({ ...record, commit: { sha: commit, tree, parent } });
  }

  if (commit !== head) {
    const answer = head === null
      ? await client.write('POST', `${repoPath}/git/refs`, { ref: `refs/heads/${branch}`, sha: commit }, `the branch ${branch}`, REFUSALS)
      : await client.write('PATCH', `${repoPath}/git/refs/heads/${branchPath(branch)}`, { sha: commit, force: false }, `the branch ${branch}`, REFUSALS);
    if (answer.status !== 201 && answer.status !== 200) throw refused('ref')(answer);
  }
  if (record.pushed !== commit) save({ ...record, pushed: commit });

  const sides = { base: origin, head: { owner: target.owner, branch, sameRepo: request.fork === undefined } };
  const pullRequest = await openOrUpdatePull(client, sides, request, head !== null || record.pullRequest !== undefined, refused('pulls'));
  if (record.pullRequest?.number !== pullRequest.number) save({ ...record, pullRequest: { number: pullRequest.number, url: pullRequest.url } });
  return { pullRequest, commit, record: structuredClone(record), requests: client.requests.api };
}

/** The changes with repository paths, for a session that imported one folder. */
function inRepo(changes: readonly FileChange[], folder: string): readonly FileChange[] {
  const prefix = folder.replace(/^\/+|\/+$/g, '');
  if (prefix === '') return changes;
  return changes.map((change) => ({ ...change, path: `${prefix}/${change.path}`, ...('movedFrom' in change && change.movedFrom ? { movedFrom: `${prefix}/${change.movedFrom}` } : {}) }));
}

function usableRecord(record: PushRecord | undefined, target: RepoName, branch: string): PushRecord | undefined {
  if (!record || record.branch !== branch) return undefined;
  const same = record.target.owner.toLowerCase() === target.owner.toLowerCase() && record.target.repo.toLowerCase() === target.repo.toLowerCase();
  return same ? structuredClone(record) : undefined;
}

/** The commit the branch holds, or null when it is gone (deleted since the last push). */
async function branchHead(client: GitHubClient, repoPath: string, branch: string): Promise<string | null> {
  const answer = await client.get(`${repoPath}/git/ref/heads/${branchPath(branch)}`, `the branch ${branch}`, [404]);
  if (answer.status === 404) return null;
  const sha = (answer.body as { object?: { sha?: unknown } } | null)?.object?.sha;
  if (typeof sha !== 'string') throw new UnexpectedAnswerError(`the branch ${branch}`, 'no commit');
  return sha;
}

async function treeOfCommit(client: GitHubClient, repoPath: string, sha: string): Promise<string> {
  const answer = await client.get(`${repoPath}/git/commits/${sha}`, `the imported commit ${sha.slice(0, 7)}`);
  const tree = (answer.body as { tree?: { sha?: unknown } } | null)?.tree?.sha;
  if (typeof tree !== 'string') throw new UnexpectedAnswerError(`the imported commit ${sha.slice(0, 7)}`, 'no tree');
  return tree;
}

function shaIn(body: unknown, what: string): string {
  const sha = (body as { sha?: unknown } | null)?.sha;
  if (typeof sha !== 'string') throw new UnexpectedAnswerError(what, 'no sha');
  return sha;
}

const branchPath = (branch: string) => branch.split('/').map(encodeURIComponent).join('/');
