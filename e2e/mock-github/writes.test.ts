// The mock's write routes as a client sees them: GitHub's status codes and shapes, real git ids, refusals per token.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockRepo } from './fixture';
import { startMockGitHub, type MockGitHub } from './server';

let mock: MockGitHub;
let repo: MockRepo;
const headers = { authorization: 'Bearer ghp_mock', 'content-type': 'application/json' };

beforeAll(async () => {
  mock = await startMockGitHub({ grants: { ghp_read: { login: 'fan', contents: 'read' } } });
  repo = await mock.addRepo({ owner: 'octo', name: 'hello', branches: { main: [{ path: 'README.md', data: 'hello\n' }, { path: 'src/a.ts', data: 'a\n' }] } });
});
afterAll(() => mock.close());

const call = async (method: string, path: string, body?: unknown, token = 'ghp_mock') => {
  const response = await fetch(`${mock.apiUrl}/repos/octo/hello${path}`, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const gitId = (type: string, data: Buffer) => createHash('sha1').update(`${type} ${data.length}\0`).update(data).digest('hex');

describe('git database writes', () => {
  it('makes blobs with git ids, a tree on a base_tree, a commit, and moves refs only as fast-forwards', async () => {
    const blob = await call('POST', '/git/blobs', { content: Buffer.from([0, 1, 2]).toString('base64'), encoding: 'base64' });
    expect(blob.status).toBe(201);
    expect(blob.body.sha).toBe(gitId('blob', Buffer.from([0, 1, 2])));
    expect(blob.body.url).toMatch(/\/git\/blobs\/[0-9a-f]{40}$/);

    const main = repo.branches.get('main') as string;
    const base = repo.commits.get(main)?.treeSha;
    const tree = await call('POST', '/git/trees', {
      base_tree: base,
      tree: [{ path: 'bin.dat', mode: '100644', type: 'blob', sha: blob.body.sha }, { path: 'src/a.ts', mode: '100644', type: 'blob', sha: null }, { path: 'x', mode: '120000', type: 'blob', content: 'README.md' }],
    });
    expect(tree.status).toBe(201);
    expect((tree.body.tree as { path: string; mode: string }[]).map((e) => `${e.mode} ${e.path}`)).toEqual(['100644 README.md', '100644 bin.dat', '120000 x']);

    const commit = await call('POST', '/git/commits', { message: 'm', tree: tree.body.sha, parents: [main] });
    expect(commit.status).toBe(201);
    expect(commit.body).toMatchObject({ tree: { sha: tree.body.sha }, parents: [{ sha: main }] });

    expect((await call('POST', '/git/refs', { ref: 'refs/heads/main', sha: commit.body.sha })).body.message).toBe('Reference already exists');
    expect((await call('POST', '/git/refs', { ref: 'refs/heads/topic', sha: commit.body.sha })).status).toBe(201);
    expect((await call('GET', '/git/ref/heads/topic')).body).toMatchObject({ ref: 'refs/heads/topic', object: { sha: commit.body.sha, type: 'commit' } });
    const back = await call('PATCH', '/git/refs/heads/topic', { sha: main, force: false });
    expect(back).toMatchObject({ status: 422, body: { message: 'Update is not a fast forward' } });
    expect((await call('PATCH', '/git/refs/heads/topic', { sha: main, force: true })).status).toBe(200);
  });

  it('refuses a token without Contents: write, and opens one pull request per head', async () => {
    expect((await call('POST', '/git/blobs', { content: 'x' }, 'ghp_read')).status).toBe(403);
    const open = { title: 'T', head: 'topic', base: 'main', body: 'B' };
    const first = await call('POST', '/pulls', open);
    expect(first).toMatchObject({ status: 201, body: { number: 1, state: 'open', head: { ref: 'topic', label: 'octo:topic' }, base: { ref: 'main' } } });
    const second = await call('POST', '/pulls', open);
    expect(second.status).toBe(422);
    expect(JSON.stringify(second.body)).toContain('A pull request already exists for octo:topic.');
    const listed = await fetch(`${mock.apiUrl}/repos/octo/hello/pulls?head=octo:topic&state=open`, { headers });
    expect(((await listed.json()) as unknown[]).length).toBe(1);
  });

  it('answers /user with the token\'s scopes', async () => {
    const response = await fetch(`${mock.apiUrl}/user`, { headers });
    expect(response.headers.get('x-oauth-scopes')).toBe('repo, workflow');
    expect(((await response.json()) as { login: string }).login).toBe('octocat');
  });
});
