// A loopback GitHub for import and push tests: the REST endpoints an import reads (repository, commit, trees,
// blobs), GraphQL blob reads, and the raw host on its own port, answering from in-memory repositories in GitHub's
// wire formats, with its CORS headers, rate limits (primary and secondary), private repositories, truncated tree
// listings, a latency per request, and a count of requests per kind; and the writes a push makes (git-writes.ts,
// pull-requests.ts), each token allowed what its grant says (grants.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { listen, readBody, sleep } from '../loopback-http';
import { addCommitObject, buildMockRepo, commitOf, entryAt, type MockRepo, type MockRepoSpec, type MockTreeEntry } from './fixture';
import { answerGitRoute } from './git-writes';
import { DEFAULT_GRANT, type MockTokenGrant } from './grants';
import { answerPullRoute, forkBody, forkOf, userBody, type MockPull } from './pull-requests';
import { RateLimits, type RateLimitOptions, type RateResource } from './rate-limits';
import { answerBlobQuery, notFoundError, parseBlobQuery } from './wire-graphql';
import {
  BAD_CREDENTIALS, blobBody, commitBody, errorBody, NOT_FOUND, primaryLimitBody, repositoryBody, secondaryLimitBody,
  treeBody, treeEntry, type TreeListingEntry,
} from './wire-rest';

export type RequestKind = 'api' | 'graphql' | 'raw';
export type MockGitHubRequest = { kind: RequestKind; method: string; path: string; status: number; token: string | null };

export type MockGitHubOptions = {
  repos?: MockRepoSpec[];
  /**
   * Serve HTTPS with HTTP/2 (HTTP/1.1 still answered), as GitHub's hosts do: a browser then keeps 16 requests in
   * flight on one connection instead of six connections per host. The certificate is the caller's (a bench makes a
   * self-signed one and starts Chromium to accept it).
   */
  tls?: { key: string; cert: string };
  /** Tokens the mock accepts (as `Authorization: Bearer T` or `token T`); default ['ghp_mock']. */
  tokens?: string[];
  /** Milliseconds before each answer, preflights included; default 0. */
  latencyMs?: number;
  /** Entries a tree listing holds before it is cut short with `truncated: true` (GitHub: 100,000). */
  treeEntryCap?: number;
  /** Bytes of a blob's GraphQL `text` before it is cut short with `isTruncated: true`; default 512 KiB. */
  graphqlTextLimit?: number;
  rateLimits?: RateLimitOptions;
  /** Where the REST API sits on its server, e.g. '/api/v3' for an Enterprise-style address; default ''. */
  apiPrefix?: string;
  /** What each token may do (its key is accepted as a token); a token without one gets DEFAULT_GRANT. */
  grants?: Record<string, MockTokenGrant>;
  /** Reads of a new fork refused (404) before it answers, as GitHub makes forks in the background; default 2. */
  forkAnswersAfter?: number;
};

export type MockGitHub = {
  /** REST base URL, e.g. http://127.0.0.1:4011 (GraphQL is `${apiUrl}/graphql`, or /api/graphql beside /api/v3). */
  apiUrl: string;
  graphqlUrl: string;
  /** The raw host's base URL: `${rawUrl}/OWNER/REPO/REF/PATH`. */
  rawUrl: string;
  /** Requests received per kind, preflights excluded; reset with `resetCounts`. */
  readonly counts: Record<RequestKind, number>;
  readonly requests: MockGitHubRequest[];
  resetCounts(): void;
  addRepo(spec: MockRepoSpec): Promise<MockRepo>;
  setLatency(ms: number): void;
  setTreeEntryCap(entries: number): void;
  /** Sets what is left of a caller's hourly budget (token null: the budget without a token). */
  setRateRemaining(remaining: number, caller?: { token?: string | null; resource?: RateResource }): void;
  /** The epoch second a caller's budget resets, as x-ratelimit-reset says. */
  rateLimitReset(caller?: { token?: string | null; resource?: RateResource }): number;
  /** The next `times` API or GraphQL requests get a secondary rate limit (403, `retry-after: seconds`). */
  secondaryLimit(times: number, retryAfterSeconds: number): void;
  /** Serves other bytes than the blob's own for `sha`, on every route. */
  corruptBlob(sha: string): void;
  /** Accepts `token` with what `grant` allows (replacing its grant if it had one). */
  grant(token: string, grant: MockTokenGrant): void;
  /** The `nth` API request from now (1: the next) answers `status` with GitHub's server error body. */
  failRequest(nth: number, status?: number): void;
  /** A repository as it stands (branches, commits, trees, blobs), or undefined. */
  repo(owner: string, name: string): MockRepo | undefined;
  /** The pulls opened against a repository. */
  pulls(owner: string, name: string): MockPull[];
  /** Someone else's push: a commit on top of `branch`, with the same files. */
  moveBranch(owner: string, name: string, branch: string): string;
  close(): Promise<void>;
};

// GitHub's own lists, from its CORS answers.
const EXPOSED = 'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, ' +
  'X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, ' +
  'X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset';
const ALLOWED = 'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, ' +
  'X-GitHub-OTP, X-Requested-With, User-Agent, GraphQL-Features, X-GitHub-Api-Version';
const COMMIT_DOCS = 'https://docs.github.com/rest/commits/commits#get-a-commit';

/** Starts the mock on two free ports of 127.0.0.1 (API and raw host). */
export async function startMockGitHub(options: MockGitHubOptions = {}): Promise<MockGitHub> {
  const repos = new Map<string, MockRepo>();
  const grants = new Map(Object.entries(options.grants ?? {}));
  const tokens = new Set([...(options.tokens ?? ['ghp_mock']), ...grants.keys()]);
  const pulls = new WeakMap<MockRepo, MockPull[]>();
  const pendingForks = new Map<string, { repo: MockRepo; reads: number }>();
  const forkAnswersAfter = options.forkAnswersAfter ?? 2;
  let failAt = 0;
  let failStatus = 502;
  const limits = new RateLimits(options.rateLimits);
  const counts: Record<RequestKind, number> = { api: 0, graphql: 0, raw: 0 };
  const requests: MockGitHubRequest[] = [];
  const corrupted = new Set<string>();
  const prefix = options.apiPrefix ?? '';
  const graphqlPath = prefix.endsWith('/v3') ? `${prefix.slice(0, -3)}/graphql` : `${prefix}/graphql`;
  const textLimit = options.graphqlTextLimit ?? 512 * 1024;
  let latencyMs = options.latencyMs ?? 0;
  let treeEntryCap = options.treeEntryCap ?? 100_000;
  let secondary = { times: 0, retryAfter: 60 };
  let serial = 0;
  const api = { url: '', web: '' };

  const serveBytes = (sha: string, data: Uint8Array) => (corrupted.has(sha) ? corrupt(data) : data);
  const repoFor = (owner: string, name: string, token: string | null) => {
    const key = `${owner}/${name}`.toLowerCase();
    const pending = pendingForks.get(key);
    if (pending && pending.reads-- <= 0) {
      pendingForks.delete(key);
      repos.set(key, pending.repo);
    }
    const repo = repos.get(key);
    return repo && (!repo.private || token !== null) ? repo : undefined;
  };

  async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    await sleep(latencyMs);
    if (req.method === 'OPTIONS') return preflight(res);
    const body = await readBody(req);
    const kind: RequestKind = url.pathname === graphqlPath ? 'graphql' : 'api';
    const resource: RateResource = kind === 'graphql' ? 'graphql' : 'core';
    const record: MockGitHubRequest = { kind, method: req.method ?? 'GET', path: url.pathname + url.search, status: 200, token: null };
    counts[kind]++;
    requests.push(record);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      sendJson(res, status, payload, { 'x-github-request-id': requestId(++serial), ...headers });
    };

    if (failAt > 0 && --failAt === 0) return send(failStatus, { message: 'Server Error' });
    const credential = tokenOf(req);
    if (credential !== null && !tokens.has(credential)) return send(401, BAD_CREDENTIALS, limits.headers(null, resource));
    const token = credential;
    record.token = token;
    if (kind === 'graphql' && token === null) {
      return send(401, { message: 'This endpoint requires you to be authenticated.', documentation_url: 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql' });
    }
    if (secondary.times > 0) {
      secondary.times--;
      const id = requestId(++serial);
      return send(403, secondaryLimitBody(id), { ...limits.headers(token, resource), 'retry-after': String(secondary.retryAfter) });
    }
    if (!limits.spend(token, resource)) {
      if (kind === 'graphql') {
        return send(200, { errors: [{ type: 'RATE_LIMITED', message: `API rate limit already exceeded for user ID 1.` }] }, limits.headers(token, resource));
      }
      return send(403, primaryLimitBody(token), limits.headers(token, resource));
    }
    const rate = limits.headers(token, resource);
    if (kind === 'graphql') return graphql(body, token, (status, payload) => send(status, payload, rate));
    await rest(req.method ?? 'GET', url, token, body, (status, payload, headers = {}) => send(status, payload, { ...rate, ...headers }));
  }

  async function rest(method: string, url: URL, token: string | null, bodyText: string, send: (status: number, payload: unknown, headers?: Record<string, string>) => void): Promise<void> {
    const path = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length) : '';
    const grant = token === null ? null : (grants.get(token) ?? DEFAULT_GRANT);
    const context = { api: api.url, web: api.web };
    if (path === '/user' && method === 'GET') {
      if (!grant) return send(401, errorBody(401, 'Requires authentication', 'https://docs.github.com/rest/users/users#get-the-authenticated-user'));
      return send(200, userBody(context, grant), grant.scopes ? { 'x-oauth-scopes': grant.scopes.join(', '), 'x-accepted-oauth-scopes': '' } : {});
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(?:\/(.*))?$/.exec(path);
    if (!match) return send(404, NOT_FOUND());
    const [, owner, name, rest = ''] = match.map((part) => (part === undefined ? part : decodeURIComponent(part)));
    const repo = repoFor(owner, name, token);
    if (!repo) return send(404, NOT_FOUND('https://docs.github.com/rest/repos/repos#get-a-repository'));
    if (rest === 'forks' && method === 'POST') return fork(context, repo, grant, send);
    if (await answerGitRoute(context, repo, grant, method, rest, bodyText, send)) return;
    const pullContext = { ...context, repoNamed: (o: string, n: string) => repoFor(o, n, token), pullsOf };
    if (answerPullRoute(pullContext, repo, grant, method, rest, url, bodyText, send)) return;
    if (method !== 'GET') return send(404, NOT_FOUND());
    if (rest === '') return send(200, repositoryBody(api.url, api.web, repo));

    const commitRef = /^commits\/(.+)$/.exec(rest);
    if (commitRef) {
      if (repo.commits.size === 0) return send(409, errorBody(409, 'Git Repository is empty.', COMMIT_DOCS));
      const commit = commitOf(repo, commitRef[1]);
      if (!commit) return send(422, errorBody(422, `No commit found for SHA: ${commitRef[1]}`, COMMIT_DOCS));
      return send(200, commitBody(api.url, api.web, repo, commit));
    }
    const tree = /^git\/trees\/(.+)$/.exec(rest);
    if (tree) {
      const treeSha = repo.trees.has(tree[1]) ? tree[1] : commitOf(repo, tree[1])?.treeSha;
      if (!treeSha) return send(404, NOT_FOUND('https://docs.github.com/rest/git/trees#get-a-tree'));
      const recursive = url.searchParams.has('recursive') && !['0', 'false'].includes(url.searchParams.get('recursive') ?? '');
      const entries = recursive ? listRecursive(repo, treeSha, '') : (repo.trees.get(treeSha) ?? []).map((e) => treeEntry(api.url, repo, e.name, e));
      const truncated = entries.length > treeEntryCap;
      return send(200, treeBody(api.url, repo, treeSha, truncated ? entries.slice(0, treeEntryCap) : entries, truncated));
    }
    const blob = /^git\/blobs\/([0-9a-f]{40})$/.exec(rest);
    if (blob) {
      const data = repo.blobs.get(blob[1]);
      if (!data) return send(404, NOT_FOUND('https://docs.github.com/rest/git/blobs#get-a-blob'));
      return send(200, blobBody(api.url, repo, blob[1], serveBytes(blob[1], data)));
    }
    send(404, NOT_FOUND());
  }

  function pullsOf(repo: MockRepo): MockPull[] {
    let list = pulls.get(repo);
    if (!list) pulls.set(repo, (list = []));
    return list;
  }

  function fork(context: { api: string; web: string }, parent: MockRepo, grant: MockTokenGrant | null, send: (status: number, payload: unknown) => void): void {
    if (!grant) return send(401, errorBody(401, 'Requires authentication', 'https://docs.github.com/rest/repos/forks#create-a-fork'));
    const key = `${grant.login}/${parent.name}`.toLowerCase();
    let made = repos.get(key) ?? pendingForks.get(key)?.repo;
    if (!made) {
      made = forkOf(parent, grant.login, repos.size + pendingForks.size + 1);
      if (forkAnswersAfter > 0) pendingForks.set(key, { repo: made, reads: forkAnswersAfter });
      else repos.set(key, made);
    }
    send(202, forkBody(context, made, parent));
  }

  function listRecursive(repo: MockRepo, sha: string, base: string): TreeListingEntry[] {
    const out: TreeListingEntry[] = [];
    for (const entry of repo.trees.get(sha) ?? []) {
      const path = base + entry.name;
      out.push(treeEntry(api.url, repo, path, entry));
      if (entry.type === 'tree') out.push(...listRecursive(repo, entry.sha, `${path}/`));
    }
    return out;
  }

  function graphql(bodyText: string, token: string | null, send: (status: number, payload: unknown) => void): void {
    let query: unknown;
    try {
      query = (JSON.parse(bodyText) as { query?: unknown }).query;
    } catch {
      return send(400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/graphql' });
    }
    if (typeof query !== 'string') return send(200, { errors: [{ message: 'A query attribute must be specified and must be a string.' }] });
    const parsed = parseBlobQuery(query);
    if ('error' in parsed) return send(200, { errors: [{ message: parsed.error, locations: [{ line: 1, column: 1 }] }] });
    const repo = repoFor(parsed.owner, parsed.name, token);
    if (!repo) return send(200, { data: { repository: null }, errors: [notFoundError(parsed.owner, parsed.name)] });
    send(200, { data: answerBlobQuery(repo, parsed, textLimit, serveBytes) });
  }

  async function handleRaw(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    await sleep(latencyMs);
    if (req.method === 'OPTIONS') return preflight(res);
    counts.raw++;
    const record: MockGitHubRequest = { kind: 'raw', method: req.method ?? 'GET', path: url.pathname, status: 200, token: null };
    requests.push(record);
    const [owner, name, ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const repo = owner && name ? repoFor(owner, name, null) : undefined;
    const found = repo ? rawBlob(repo, rest) : undefined;
    const headers = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin', 'x-content-type-options': 'nosniff' };
    if (!found || req.method !== 'GET') {
      record.status = 404;
      res.writeHead(404, { ...headers, 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('404: Not Found');
    }
    res.writeHead(200, { ...headers, 'content-type': 'text/plain; charset=utf-8', etag: `"${found.sha}"`, 'cache-control': 'max-age=300' });
    res.end(serveBytes(found.sha, found.data));
  }

  // A ref may hold slashes: the first split that names a commit and a blob below it is the one served.
  function rawBlob(repo: MockRepo, segments: string[]): { sha: string; data: Uint8Array } | undefined {
    for (let i = 1; i < segments.length; i++) {
      const commit = commitOf(repo, segments.slice(0, i).join('/'));
      const entry: MockTreeEntry | undefined = commit ? entryAt(repo, commit.treeSha, segments.slice(i).join('/')) : undefined;
      const data = entry?.type === 'blob' ? repo.blobs.get(entry.sha) : undefined;
      if (entry && data) return { sha: entry.sha, data };
    }
    return undefined;
  }

  const sockets = new Set<Socket>();
  const serve = (handler: (req: IncomingMessage, res: ServerResponse) => void): Server =>
    // HTTP/2's compatibility request and response answer the calls the handlers make (writeHead, end, headers).
    options.tls ? (createSecureServer({ ...options.tls, allowHTTP1: true }, handler as never) as unknown as Server) : createServer(handler);
  const apiServer = await listen(serve(guard(handleApi)), sockets);
  const rawServer = await listen(serve(guard(handleRaw)), sockets);
  const scheme = options.tls ? 'https' : 'http';
  const origin = (server: Server) => `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api.url = `${origin(apiServer)}${prefix}`;
  api.web = origin(apiServer);
  const caller = (c: { token?: string | null; resource?: RateResource } = {}) => [c.token ?? null, c.resource ?? 'core'] as const;
  for (const spec of options.repos ?? []) repos.set(`${spec.owner}/${spec.name}`.toLowerCase(), await buildMockRepo(spec, repos.size + 1));

  return {
    apiUrl: api.url,
    graphqlUrl: `${origin(apiServer)}${graphqlPath}`,
    rawUrl: origin(rawServer),
    counts,
    requests,
    resetCounts: () => {
      counts.api = counts.graphql = counts.raw = 0;
      requests.length = 0;
    },
    addRepo: async (spec) => {
      const repo = await buildMockRepo(spec, repos.size + 1);
      repos.set(`${spec.owner}/${spec.name}`.toLowerCase(), repo);
      return repo;
    },
    setLatency: (ms) => void (latencyMs = ms),
    setTreeEntryCap: (entries) => void (treeEntryCap = entries),
    setRateRemaining: (remaining, c) => limits.setRemaining(...caller(c), remaining),
    rateLimitReset: (c) => limits.resetOf(...caller(c)),
    secondaryLimit: (times, retryAfter) => void (secondary = { times, retryAfter }),
    corruptBlob: (sha) => void corrupted.add(sha),
    grant: (token, grant) => {
      grants.set(token, grant);
      tokens.add(token);
    },
    failRequest: (nth, status = 502) => void (failAt = nth, failStatus = status),
    repo: (owner, name) => repos.get(`${owner}/${name}`.toLowerCase()),
    pulls: (owner, name) => {
      const repo = repos.get(`${owner}/${name}`.toLowerCase());
      return repo ? pullsOf(repo) : [];
    },
    moveBranch: (owner, name, branch) => {
      const repo = repos.get(`${owner}/${name}`.toLowerCase());
      const head = repo?.branches.get(branch);
      const commit = head ? repo?.commits.get(head) : undefined;
      if (!repo || !head || !commit) throw new Error(`mock github: ${owner}/${name} has no branch ${branch}`);
      const moved = addCommitObject(repo, commit.treeSha, [head], `Someone else's commit on ${branch}\n`);
      repo.branches.set(branch, moved.sha);
      return moved.sha;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([apiServer, rawServer].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    },
  };
}

function tokenOf(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^(?:bearer|token)\s+(\S+)$/i.exec(header.trim()) : null;
  return match ? match[1] : null;
}

function corrupt(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 1);
  out.set(data);
  out[data.length] = 0x21;
  return out;
}

const requestId = (n: number) => `MOCK:${n.toString(16).toUpperCase().padStart(4, '0')}`;

function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': ALLOWED,
    'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE',
    'access-control-expose-headers': EXPOSED,
    'access-control-max-age': '86400',
    'access-control-allow-private-network': 'true',
  });
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED,
    'x-github-media-type': 'github.v3; format=json',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

function guard(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, { message: `mock github bug: ${String(error)}` }, {});
    });
  };
}
