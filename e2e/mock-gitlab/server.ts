// A loopback GitLab for import tests: the REST endpoints an import and a token check read (project, commit,
// archive.zip, user, the token itself), answering from in-memory projects in GitLab's wire formats, with its CORS
// headers, private projects, tokens as PRIVATE-TOKEN or Bearer, 429 throttling with Retry-After and RateLimit-*,
// a latency per request, an archive streamed in chunks (no Content-Length, as GitLab's Workhorse sends it), and a
// count of requests per kind.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { listen, readBody, sleep } from '../loopback-http';
import { archivePrefix, archiveZip } from './archive';
import { buildMockProject, commitOf, type MockProject, type MockProjectSpec } from './fixture';
import {
  COMMIT_NOT_FOUND, commitBody, FILE_NOT_FOUND, PROJECT_NOT_FOUND, projectBody, ROUTE_NOT_FOUND, tokenBody, UNAUTHORIZED, userBody,
} from './wire';
import { MockGitLabWrites, type MockMergeRequest } from './writes';

export type RequestKind = 'api' | 'archive';
export type MockGitLabRequest = { kind: RequestKind; method: string; path: string; status: number; token: string | null };
export type MockGitLabToken = { username: string; scopes: string[] };

export type MockGitLabOptions = {
  projects?: MockProjectSpec[];
  /** Tokens the mock accepts; default { 'glpat-mock': { username: 'mock-user', scopes: ['read_api'] } }. */
  tokens?: Record<string, MockGitLabToken>;
  /** Milliseconds before each answer, preflights included; default 0. */
  latencyMs?: number;
  /** An archive is written in chunks of this many bytes (default 64 KiB), `archiveChunkDelayMs` apart (default 0). */
  archiveChunkBytes?: number;
  archiveChunkDelayMs?: number;
  /** Send Content-Length with an archive; default false. */
  archiveContentLength?: boolean;
};

export type MockGitLab = {
  /** The web origin, as settings name a GitLab host: http://127.0.0.1:PORT. The API is `${baseUrl}/api/v4`. */
  baseUrl: string;
  /** Requests received per kind, preflights excluded; reset with `resetCounts`. */
  readonly counts: Record<RequestKind, number>;
  readonly requests: MockGitLabRequest[];
  resetCounts(): void;
  addProject(spec: MockProjectSpec): MockProject;
  setLatency(ms: number): void;
  setArchiveStreaming(options: { chunkBytes?: number; chunkDelayMs?: number; contentLength?: boolean }): void;
  /** The next `times` requests are throttled: 429 `Retry later`, `Retry-After: seconds`, RateLimit-* headers. */
  throttle(times: number, retryAfterSeconds: number): void;
  /** A project as it stands (refs, commits), by its full path. */
  project(fullPath: string): MockProject | undefined;
  /** The merge requests opened on a project (writes.ts). */
  mergeRequests(fullPath: string): MockMergeRequest[];
  close(): Promise<void>;
};

const TOKEN = 'glpat-mock';
// Rack-cors as GitLab configures it for /api/*, plus the throttle headers so a page can read them.
const EXPOSED = 'Link, X-Total, X-Total-Pages, X-Per-Page, X-Page, X-Next-Page, X-Prev-Page, X-Gitlab-Blob-Id, X-Gitlab-Commit-Id, ' +
  'X-Gitlab-Content-Sha256, X-Gitlab-Encoding, X-Gitlab-File-Name, X-Gitlab-File-Path, X-Gitlab-Last-Commit-Id, X-Gitlab-Ref, ' +
  'X-Gitlab-Size, X-Request-Id, ETag, RateLimit-Limit, RateLimit-Observed, RateLimit-Remaining, RateLimit-Reset, RateLimit-ResetTime, Retry-After';
const THROTTLE_LIMIT = 500;

/** Starts the mock on a free port of 127.0.0.1. */
export async function startMockGitLab(options: MockGitLabOptions = {}): Promise<MockGitLab> {
  const projects: MockProject[] = [];
  const tokens = new Map(Object.entries(options.tokens ?? { [TOKEN]: { username: 'mock-user', scopes: ['read_api'] } }));
  const counts: Record<RequestKind, number> = { api: 0, archive: 0 };
  const requests: MockGitLabRequest[] = [];
  let latencyMs = options.latencyMs ?? 0;
  let streaming = { chunkBytes: options.archiveChunkBytes ?? 64 * 1024, chunkDelayMs: options.archiveChunkDelayMs ?? 0, contentLength: options.archiveContentLength ?? false };
  let throttled = { times: 0, retryAfter: 60 };
  let serial = 0;
  let base = '';
  const writes = new MockGitLabWrites(() => base);

  const projectFor = (id: string, token: string | null) => {
    const project = /^\d+$/.test(id) ? projects.find((p) => p.id === Number(id)) : projects.find((p) => p.fullPath.toLowerCase() === id.toLowerCase());
    return project && (!project.private || token !== null) ? project : undefined;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await sleep(latencyMs);
    if (req.method === 'OPTIONS') return preflight(req, res);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // The raw path: a project id holds its slashes as %2F, which must not split it.
    const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const isArchive = segments[4] === 'repository' && /^archive(\.zip)?$/.test(segments[5] ?? '');
    const record: MockGitLabRequest = { kind: isArchive ? 'archive' : 'api', method: req.method ?? 'GET', path: url.pathname + url.search, status: 200, token: null };
    counts[record.kind]++;
    requests.push(record);
    const requestId = `01MOCK${String(++serial).padStart(6, '0')}`;
    const send = (status: number, body: unknown) => {
      record.status = status;
      sendJson(res, status, body, requestId);
    };

    if (throttled.times > 0) {
      throttled.times--;
      record.status = 429;
      return throttle(res, throttled.retryAfter, requestId);
    }
    const credential = tokenOf(req);
    const user = credential === null ? undefined : tokens.get(credential);
    if (credential !== null && !user) return send(401, UNAUTHORIZED);
    record.token = credential;
    const userId = credential === null ? 0 : userIdOf(credential);
    if (segments[0] !== 'api' || segments[1] !== 'v4') return send(404, ROUTE_NOT_FOUND);
    const [, , resource, id, ...rest] = segments;
    const reading = req.method === 'GET';

    if (reading && resource === 'user' && id === undefined) {
      return user ? send(200, userBody(base, userId, user.username)) : send(401, UNAUTHORIZED);
    }
    if (reading && resource === 'personal_access_tokens' && id === 'self' && rest.length === 0) {
      return user ? send(200, tokenBody(userId + 100, userId, user.scopes)) : send(401, UNAUTHORIZED);
    }
    if (resource !== 'projects' || id === undefined) return send(404, ROUTE_NOT_FOUND);
    const project = projectFor(id, credential);
    if (!project) return send(404, PROJECT_NOT_FOUND);
    if (reading && rest.length === 0) return send(200, projectBody(base, project));
    if (reading && rest[0] === 'repository' && rest[1] === 'commits' && rest.length === 3) {
      const commit = commitOf(project, rest[2]);
      return commit ? send(200, commitBody(base, project, commit)) : send(404, COMMIT_NOT_FOUND);
    }
    if (reading && isArchive && rest.length === 2) {
      const ref = url.searchParams.get('sha') ?? project.defaultBranch ?? '';
      const commit = commitOf(project, ref);
      const path = url.searchParams.get('path') ?? '';
      const zip = commit ? archiveZip(project.name, ref, commit, path) : null;
      if (!commit || !zip) return send(404, FILE_NOT_FOUND);
      return streamArchive(res, zip, `${archivePrefix(project.name, ref, commit, path)}.zip`, requestId);
    }
    const body = reading ? '' : await readBody(req);
    const sendBytes = (bytes: Uint8Array) => {
      res.writeHead(200, { ...corsHeaders(), 'content-type': 'text/plain; charset=utf-8', 'x-request-id': requestId });
      res.end(bytes);
    };
    if (writes.answer(project, req.method ?? 'GET', rest, url, body, user?.scopes.includes('api') ?? false, send, sendBytes)) return;
    send(404, ROUTE_NOT_FOUND);
  }

  async function streamArchive(res: ServerResponse, zip: Uint8Array, fileName: string, requestId: string): Promise<void> {
    res.writeHead(200, {
      ...corsHeaders(),
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${fileName}"`,
      'content-transfer-encoding': 'binary',
      'x-request-id': requestId,
      ...(streaming.contentLength ? { 'content-length': String(zip.length) } : {}),
    });
    const { chunkBytes, chunkDelayMs } = streaming;
    for (let at = 0; at < zip.length; at += chunkBytes) {
      if (res.destroyed) return;
      res.write(zip.subarray(at, at + chunkBytes));
      await sleep(chunkDelayMs);
    }
    res.end();
  }

  const sockets = new Set<Socket>();
  const server = await listen(createServer(guard(handle)), sockets);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const addProject = (spec: MockProjectSpec) => {
    const project = buildMockProject(spec, projects.length + 1);
    projects.push(project);
    return project;
  };
  for (const spec of options.projects ?? []) addProject(spec);
  const userIds = new Map([...tokens.keys()].map((token, i) => [token, i + 1]));
  const userIdOf = (token: string) => userIds.get(token) ?? 0;

  return {
    baseUrl: base,
    counts,
    requests,
    resetCounts: () => {
      counts.api = counts.archive = 0;
      requests.length = 0;
    },
    addProject,
    setLatency: (ms) => void (latencyMs = ms),
    setArchiveStreaming: (next) => void (streaming = { ...streaming, ...next }),
    throttle: (times, retryAfter) => void (throttled = { times, retryAfter }),
    project: (fullPath) => projects.find((p) => p.fullPath === fullPath),
    mergeRequests: (fullPath) => {
      const project = projects.find((p) => p.fullPath === fullPath);
      return project ? writes.mergeRequestsOf(project) : [];
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function tokenOf(req: IncomingMessage): string | null {
  const privateToken = req.headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim() !== '') return privateToken.trim();
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^bearer\s+(\S+)$/i.exec(header.trim()) : null;
  return match ? match[1] : null;
}

const corsHeaders = () => ({ 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED });

function throttle(res: ServerResponse, retryAfter: number, requestId: string): void {
  const reset = Math.floor(Date.now() / 1000) + retryAfter;
  res.writeHead(429, {
    ...corsHeaders(),
    'content-type': 'text/plain',
    'x-request-id': requestId,
    'retry-after': String(retryAfter),
    'ratelimit-name': 'throttle_unauthenticated_api',
    'ratelimit-limit': String(THROTTLE_LIMIT),
    'ratelimit-observed': String(THROTTLE_LIMIT + 1),
    'ratelimit-remaining': '0',
    'ratelimit-reset': String(reset),
    'ratelimit-resettime': new Date(reset * 1000).toUTCString(),
  });
  res.end('Retry later\n');
}

function preflight(req: IncomingMessage, res: ServerResponse): void {
  const asked = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    ...(typeof asked === 'string' ? { 'access-control-allow-headers': asked } : {}),
    'access-control-expose-headers': EXPOSED,
    'access-control-max-age': '7200',
    'access-control-allow-private-network': 'true',
    vary: 'Origin',
  });
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown, requestId: string): void {
  res.writeHead(status, { ...corsHeaders(), 'content-type': 'application/json', 'x-request-id': requestId, 'cache-control': 'max-age=0, private, must-revalidate' });
  res.end(JSON.stringify(body));
}

function guard(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, { message: `mock gitlab bug: ${String(error)}` }, 'bug');
    });
  };
}
