// GitHub's REST answers for the endpoints an import uses, in the shapes of GitHub's OpenAPI description
// (`full-repository`, `commit`, `git-tree`, `blob`, `basic-error`), trimmed to fields a client could read.
import type { MockCommit, MockRepo, MockTreeEntry } from './fixture';

const DOCS = 'https://docs.github.com/rest';

export type TreeListingEntry = { path: string; mode: string; type: string; sha: string; size?: number; url?: string };

export function repositoryBody(api: string, web: string, repo: MockRepo): unknown {
  const full = `${repo.owner}/${repo.name}`;
  return {
    id: repo.id,
    node_id: `R_mock${repo.id}`,
    name: repo.name,
    full_name: full,
    private: repo.private,
    visibility: repo.private ? 'private' : 'public',
    owner: { login: repo.owner, id: 1000 + repo.id, type: 'User', url: `${api}/users/${repo.owner}`, html_url: `${web}/${repo.owner}` },
    html_url: `${web}/${full}`,
    description: null,
    fork: false,
    url: `${api}/repos/${full}`,
    trees_url: `${api}/repos/${full}/git/trees{/sha}`,
    default_branch: repo.defaultBranch,
    archived: false,
    disabled: false,
    size: 0,
  };
}

export function commitBody(api: string, web: string, repo: MockRepo, commit: MockCommit): unknown {
  const base = `${api}/repos/${repo.owner}/${repo.name}`;
  const person = { name: 'Mock Octocat', email: 'octocat@example.com', date: '2023-11-14T22:13:20Z' };
  return {
    sha: commit.sha,
    node_id: `C_mock${commit.sha.slice(0, 12)}`,
    url: `${base}/commits/${commit.sha}`,
    html_url: `${web}/${repo.owner}/${repo.name}/commit/${commit.sha}`,
    commit: {
      author: person,
      committer: person,
      message: commit.message.trimEnd(),
      tree: { sha: commit.treeSha, url: `${base}/git/trees/${commit.treeSha}` },
      url: `${base}/git/commits/${commit.sha}`,
      comment_count: 0,
    },
    author: null,
    committer: null,
    parents: (commit.parents ?? []).map((sha) => ({ sha, url: `${base}/commits/${sha}`, html_url: `${web}/${repo.owner}/${repo.name}/commit/${sha}` })),
    files: [],
  };
}

/** One listing entry: blobs carry their size, submodules (type commit) neither size nor url. */
export function treeEntry(api: string, repo: MockRepo, path: string, entry: MockTreeEntry): TreeListingEntry {
  const base = `${api}/repos/${repo.owner}/${repo.name}/git`;
  if (entry.type === 'commit') return { path, mode: entry.mode, type: entry.type, sha: entry.sha };
  if (entry.type === 'tree') return { path, mode: entry.mode, type: entry.type, sha: entry.sha, url: `${base}/trees/${entry.sha}` };
  return { path, mode: entry.mode, type: entry.type, sha: entry.sha, size: entry.size, url: `${base}/blobs/${entry.sha}` };
}

export function treeBody(api: string, repo: MockRepo, sha: string, tree: TreeListingEntry[], truncated: boolean): unknown {
  return { sha, url: `${api}/repos/${repo.owner}/${repo.name}/git/trees/${sha}`, tree, truncated };
}

/** A blob as the blobs API sends it: base64 in lines of 60 characters, each ending in a newline. */
export function blobBody(api: string, repo: MockRepo, sha: string, data: Uint8Array): unknown {
  const base64 = Buffer.from(data).toString('base64');
  const lines = base64.match(/.{1,60}/g) ?? [];
  return {
    sha,
    node_id: `B_mock${sha.slice(0, 12)}`,
    size: data.length,
    url: `${api}/repos/${repo.owner}/${repo.name}/git/blobs/${sha}`,
    content: lines.map((line) => `${line}\n`).join(''),
    encoding: 'base64',
  };
}

export function errorBody(status: number, message: string, docs = DOCS): unknown {
  return { message, documentation_url: docs, status: String(status) };
}

export const NOT_FOUND = (docs?: string) => errorBody(404, 'Not Found', docs);
export const BAD_CREDENTIALS = errorBody(401, 'Bad credentials');

export function primaryLimitBody(token: string | null): unknown {
  const who = token === null
    ? "127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)"
    : 'user ID 1.';
  return { message: `API rate limit exceeded for ${who}`, documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api` };
}

export function secondaryLimitBody(requestId: string): unknown {
  return {
    message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again. ' +
      `If you reach out to GitHub Support for help, please include the request ID ${requestId}.`,
    documentation_url: `${DOCS}/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits`,
  };
}
