// The mock's wire shapes as a client sees them: GitLab's project, commit, archive, user and token answers, its CORS
// and throttle headers, and its status codes.
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MockProject } from './fixture';
import { startMockGitLab, type MockGitLab } from './server';

let mock: MockGitLab;
let project: MockProject;
const token = { 'private-token': 'glpat-mock' };

beforeAll(async () => {
  mock = await startMockGitLab();
  project = mock.addProject({
    namespace: 'group/sub', name: 'app',
    branches: {
      main: [{ path: 'README.md', data: 'hello\n' }, { path: 'bin/run', data: '#!/bin/sh\n', executable: true }, { path: 'link', symlink: 'README.md' }],
      'feature/x': [{ path: 'src/a.ts', data: 'a\n' }, { path: 'docs/b.md', data: 'b\n' }],
    },
    tags: { 'v1.0': [{ path: 'README.md', data: 'v1\n' }] },
  });
  mock.addProject({ namespace: 'group', name: 'secret', private: true, branches: { main: [{ path: 'a', data: 'x' }] } });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetCounts();
  mock.setArchiveStreaming({ contentLength: false, chunkBytes: 64 * 1024 });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${mock.baseUrl}/api/v4${path}`, { headers });
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;
const APP = '/projects/group%2Fsub%2Fapp';

describe('projects', () => {
  it('describes a project by its encoded full path or its numeric id, with CORS headers', async () => {
    const response = await get(APP);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({
      id: project.id, path: 'app', path_with_namespace: 'group/sub/app', default_branch: 'main', visibility: 'public',
      web_url: `${mock.baseUrl}/group/sub/app`, namespace: { full_path: 'group/sub' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(response.headers.get('access-control-expose-headers')).toContain('RateLimit-Reset');
    expect(await json(await get(`/projects/${project.id}`))).toMatchObject({ path_with_namespace: 'group/sub/app' });
    expect(mock.counts).toEqual({ api: 2, archive: 0 });
  });

  it('hides a private project without a token, and shows it with one', async () => {
    const hidden = await get('/projects/group%2Fsecret');
    expect(hidden.status).toBe(404);
    expect(await json(hidden)).toEqual({ message: '404 Project Not Found' });
    expect(await json(await get('/projects/group%2Fsecret', token))).toMatchObject({ visibility: 'private' });
    expect(await json(await get('/projects/group%2Fsecret', { authorization: 'Bearer glpat-mock' }))).toMatchObject({ visibility: 'private' });
    expect((await get('/projects/group%2Fnope')).status).toBe(404);
  });

  it('answers a preflight for PRIVATE-TOKEN like rack-cors, without counting it', async () => {
    const response = await fetch(`${mock.baseUrl}/api/v4${APP}`, {
      method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'private-token' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-headers')).toBe('private-token');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(mock.counts.api).toBe(0);
  });
});

describe('commits', () => {
  it('resolves a branch (slashes encoded), a tag and an abbreviated id to the commit id', async () => {
    const feature = await json(await get(`${APP}/repository/commits/feature%2Fx`));
    expect(feature.id).toBe(project.refs.get('feature/x'));
    expect(feature).toMatchObject({ short_id: String(feature.id).slice(0, 8), title: 'Snapshot of feature/x' });
    expect((await json(await get(`${APP}/repository/commits/v1.0`))).id).toBe(project.refs.get('v1.0'));
    const sha = project.refs.get('main')!;
    expect((await json(await get(`${APP}/repository/commits/${sha.slice(0, 8)}`))).id).toBe(sha);
    const missing = await get(`${APP}/repository/commits/nope`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ message: '404 Commit Not Found' });
  });
});

describe('archive.zip', () => {
  it("is a real zip under GitLab's <project>-<ref>-<sha>/ folder, with unix modes, streamed without a length", async () => {
    const sha = project.refs.get('main')!;
    const response = await get(`${APP}/repository/archive.zip?sha=main`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="app-main-${sha}.zip"`);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([`app-main-${sha}/`, `app-main-${sha}/README.md`, `app-main-${sha}/bin/`, `app-main-${sha}/bin/run`, `app-main-${sha}/link`]);
    expect(new TextDecoder().decode(files[`app-main-${sha}/README.md`])).toBe('hello\n');
    expect(mock.counts).toEqual({ api: 0, archive: 1 });
  });

  it('names the folder <project>-<sha> when asked by full id, slashes of a ref as dashes, and takes a path', async () => {
    const sha = project.refs.get('feature/x')!;
    const byId = unzipSync(new Uint8Array(await (await get(`${APP}/repository/archive.zip?sha=${sha}`)).arrayBuffer()));
    expect(Object.keys(byId)).toContain(`app-${sha}/src/a.ts`);
    const slashed = unzipSync(new Uint8Array(await (await get(`${APP}/repository/archive.zip?sha=feature%2Fx&path=src`)).arrayBuffer()));
    expect(Object.keys(slashed).filter((name) => !name.endsWith('/'))).toEqual([`app-feature-x-${sha}-src/src/a.ts`]);
    expect((await get(`${APP}/repository/archive.zip?sha=nope`)).status).toBe(404);
  });

  it('sends Content-Length when told to', async () => {
    mock.setArchiveStreaming({ contentLength: true });
    const response = await get(`${APP}/repository/archive.zip`);
    expect(Number(response.headers.get('content-length'))).toBe((await response.arrayBuffer()).byteLength);
  });
});

describe('tokens and limits', () => {
  it('names the token owner and its scopes; 401 for a bad token anywhere', async () => {
    expect(await json(await get('/user', token))).toMatchObject({ username: 'mock-user' });
    expect(await json(await get('/personal_access_tokens/self', token))).toMatchObject({ scopes: ['read_api'], active: true });
    const bad = await get(APP, { 'private-token': 'glpat-wrong' });
    expect(bad.status).toBe(401);
    expect(await json(bad)).toEqual({ message: '401 Unauthorized' });
    expect((await get('/user')).status).toBe(401);
  });

  it('throttles with 429 Retry later, Retry-After and RateLimit-Reset, then answers again', async () => {
    mock.throttle(1, 30);
    const refused = await get(APP);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('Retry later\n');
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(Math.abs(reset - (Date.now() / 1000 + 30))).toBeLessThan(3);
    expect((await get(APP)).status).toBe(200);
  });
});
