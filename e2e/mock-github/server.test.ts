// The mock's wire shapes as a client sees them: GitHub's REST, GraphQL and raw answers, headers and status codes.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockRepo } from './fixture';
import { startMockGitHub, type MockGitHub } from './server';

let mock: MockGitHub;
let repo: MockRepo;
const auth = { authorization: 'Bearer ghp_mock' };

beforeAll(async () => {
  mock = await startMockGitHub({ rateLimits: { unauthenticated: 60, authenticated: 5000 } });
  repo = await mock.addRepo({
    owner: 'octo', name: 'hello',
    branches: {
      main: [
        { path: 'README.md', data: 'hello\n' },
        { path: 'bin/run', data: '#!/bin/sh\n', executable: true },
        { path: 'link', symlink: 'README.md' },
        { path: 'vendor/lib', submodule: 'a'.repeat(40) },
        { path: 'img.png', data: new Uint8Array([0x89, 0x50, 0, 1, 2]) },
      ],
      'feature/x': [{ path: 'src/a.ts', data: 'a\n' }],
    },
    tags: { 'v1.0': [{ path: 'README.md', data: 'v1\n' }] },
  });
  await mock.addRepo({ owner: 'octo', name: 'secret', private: true, branches: { main: [{ path: 'a', data: 'x' }] } });
});
afterAll(() => mock.close());
beforeEach(() => mock.resetCounts());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${mock.apiUrl}${path}`, { headers });
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe('REST', () => {
  it('describes a repository, with CORS and rate-limit headers', async () => {
    const response = await get('/repos/octo/hello');
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({ full_name: 'octo/hello', default_branch: 'main', private: false, owner: { login: 'octo' } });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(response.headers.get('x-ratelimit-used')).toBe('1');
    expect(response.headers.get('x-ratelimit-resource')).toBe('core');
    expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((await get('/repos/octo/hello', auth)).headers.get('x-ratelimit-limit')).toBe('5000');
    expect(mock.counts).toEqual({ api: 2, graphql: 0, raw: 0 });
  });

  it('answers a preflight like GitHub', async () => {
    const response = await fetch(`${mock.apiUrl}/repos/octo/hello`, {
      method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toContain('Authorization');
    expect(mock.counts.api).toBe(0);
  });

  it('resolves branches (slashed too), tags and abbreviated ids to commits with real git ids', async () => {
    const main = await json(await get('/repos/octo/hello/commits/main'));
    const commit = main.commit as { tree: { sha: string }; message: string };
    const body = `tree ${commit.tree.sha}\nauthor Mock Octocat <octocat@example.com> 1700000000 +0000\ncommitter Mock Octocat <octocat@example.com> 1700000000 +0000\n\n${commit.message}\n`;
    expect(main.sha).toBe(createHash('sha1').update(`commit ${Buffer.byteLength(body)}\0${body}`).digest('hex'));
    expect((await json(await get('/repos/octo/hello/commits/feature/x'))).sha).toBe(repo.branches.get('feature/x'));
    expect((await json(await get('/repos/octo/hello/commits/feature%2Fx'))).sha).toBe(repo.branches.get('feature/x'));
    expect((await json(await get('/repos/octo/hello/commits/v1.0'))).sha).toBe(repo.tags.get('v1.0'));
    expect((await json(await get(`/repos/octo/hello/commits/${String(main.sha).slice(0, 7)}`))).sha).toBe(main.sha);
    const unknown = await get('/repos/octo/hello/commits/nope');
    expect(unknown.status).toBe(422);
    expect(await json(unknown)).toMatchObject({ message: 'No commit found for SHA: nope', status: '422' });
  });

  it('lists trees with modes and types, recursively, and cuts long listings short with truncated', async () => {
    const commit = await json(await get('/repos/octo/hello/commits/main'));
    const treeSha = (commit.commit as { tree: { sha: string } }).tree.sha;
    const flat = await json(await get(`/repos/octo/hello/git/trees/${treeSha}`));
    expect(flat.truncated).toBe(false);
    const entries = flat.tree as { path: string; mode: string; type: string; size?: number; url?: string }[];
    expect(entries.map((e) => [e.path, e.mode, e.type])).toEqual([
      ['README.md', '100644', 'blob'], ['bin', '040000', 'tree'], ['img.png', '100644', 'blob'], ['link', '120000', 'blob'], ['vendor', '040000', 'tree'],
    ]);
    expect(entries[0]).toMatchObject({ size: 6, url: expect.stringContaining('/git/blobs/') });
    const deep = (await json(await get(`/repos/octo/hello/git/trees/${treeSha}?recursive=1`))).tree as { path: string; mode: string; type: string; size?: number; url?: string }[];
    expect(deep.map((e) => e.path)).toEqual(['README.md', 'bin', 'bin/run', 'img.png', 'link', 'vendor', 'vendor/lib']);
    expect(deep.find((e) => e.path === 'bin/run')?.mode).toBe('100755');
    expect(deep.find((e) => e.path === 'vendor/lib')).toEqual({ path: 'vendor/lib', mode: '160000', type: 'commit', sha: 'a'.repeat(40) });
    mock.setTreeEntryCap(3);
    const cut = await json(await get(`/repos/octo/hello/git/trees/${treeSha}?recursive=1`));
    expect(cut.truncated).toBe(true);
    expect((cut.tree as unknown[]).length).toBe(3);
    mock.setTreeEntryCap(100_000);
  });

  it('serves blobs in base64 lines, with their git id', async () => {
    const sha = [...repo.blobs.keys()][0]; // README.md's, the first file added
    const blob = await json(await get(`/repos/octo/hello/git/blobs/${sha}`));
    expect(blob).toMatchObject({ sha, encoding: 'base64', size: 6 });
    expect(Buffer.from(String(blob.content), 'base64').toString()).toBe('hello\n');
    expect(String(blob.content).endsWith('\n')).toBe(true);
  });

  it('hides private repositories without a valid token, and refuses a bad one', async () => {
    const hidden = await get('/repos/octo/secret');
    expect(hidden.status).toBe(404);
    expect(await json(hidden)).toMatchObject({ message: 'Not Found' });
    expect((await get('/repos/octo/secret', { authorization: 'token ghp_mock' })).status).toBe(200);
    const bad = await get('/repos/octo/secret', { authorization: 'Bearer wrong' });
    expect(bad.status).toBe(401);
    expect(await json(bad)).toMatchObject({ message: 'Bad credentials' });
  });

  it('refuses with 403 and remaining 0 once the hour is used up, then a secondary limit with retry-after', async () => {
    mock.setRateRemaining(0);
    const limited = await get('/repos/octo/hello');
    expect(limited.status).toBe(403);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(mock.rateLimitReset()));
    expect(String((await json(limited)).message)).toMatch(/^API rate limit exceeded for /);
    mock.setRateRemaining(60);

    mock.secondaryLimit(1, 7);
    const slowed = await get('/repos/octo/hello');
    expect(slowed.status).toBe(403);
    expect(slowed.headers.get('retry-after')).toBe('7');
    expect(String((await json(slowed)).message)).toMatch(/^You have exceeded a secondary rate limit/);
    expect((await get('/repos/octo/hello')).status).toBe(200);
  });
});

describe('GraphQL', () => {
  const query = (text: string, headers: Record<string, string> = auth) =>
    fetch(mock.graphqlUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: text }) });

  it('reads blobs by alias, binary ones without text', async () => {
    const [readme, png] = ['README.md', 'img.png'].map((path) => repo.trees.get(repo.commits.get(repo.branches.get('main') ?? '')?.treeSha ?? '')?.find((e) => e.name === path)?.sha);
    const response = await query(`query { repository(owner: "octo", name: "hello") {
      a0: object(oid: "${readme}") { ... on Blob { text isBinary byteSize oid } }
      a1: object(expression: "main:img.png") { ... on Blob { text isBinary byteSize } }
      a2: object(oid: "${'0'.repeat(40)}") { ... on Blob { text } } } }`);
    expect(response.headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(await response.json()).toEqual({ data: { repository: {
      a0: { text: 'hello\n', isBinary: false, byteSize: 6, oid: readme },
      a1: { text: null, isBinary: true, byteSize: 5 },
      a2: null,
    } } });
    expect(png).toBeDefined();
    expect(mock.counts.graphql).toBe(1);
  });

  it('needs a token, and answers errors for a bad query or an unreadable repository', async () => {
    expect((await query('{ repository(owner: "octo", name: "hello") { }', {})).status).toBe(401);
    const bad = (await (await query('{ viewer { login } }')).json()) as { errors: { message: string }[] };
    expect(bad.errors[0].message).toMatch(/Parse error/);
    const field = (await (await query('{ repository(owner: "octo", name: "hello") { a0: object(oid: "x") { ... on Blob { nope } } } }')).json()) as { errors: { message: string }[] };
    expect(field.errors[0].message).toBe("Field 'nope' doesn't exist on type 'Blob'");
    const missing = (await (await query('{ repository(owner: "octo", name: "gone") { a0: object(oid: "x") { ... on Blob { text } } } }')).json()) as { data: unknown; errors: { type: string }[] };
    expect(missing.data).toEqual({ repository: null });
    expect(missing.errors[0].type).toBe('NOT_FOUND');
  });
});

describe('raw host', () => {
  it('serves a file by commit or ref (slashed too), 404 text otherwise, private repositories never', async () => {
    const sha = repo.branches.get('main');
    const file = await fetch(`${mock.rawUrl}/octo/hello/${sha}/README.md`);
    expect(file.status).toBe(200);
    expect(file.headers.get('access-control-allow-origin')).toBe('*');
    expect(file.headers.get('x-ratelimit-limit')).toBeNull();
    expect(await file.text()).toBe('hello\n');
    expect(await (await fetch(`${mock.rawUrl}/octo/hello/feature/x/src/a.ts`)).text()).toBe('a\n');
    const missing = await fetch(`${mock.rawUrl}/octo/hello/main/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('404: Not Found');
    expect((await fetch(`${mock.rawUrl}/octo/secret/main/a`)).status).toBe(404);
    expect(mock.counts).toEqual({ api: 0, graphql: 0, raw: 4 });
  });
});
