import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTokenTest, testGitHubToken } from './token-test';

// A loopback `GET /user`: ghp_classic has scopes, github_pat_fine has none reported, anything else is refused.
let server: Server;
let apiUrl = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const token = request.headers.authorization?.replace(/^Bearer /, '');
    if (request.url !== '/user') return void response.writeHead(404).end();
    if (token === 'ghp_classic') response.writeHead(200, { 'content-type': 'application/json', 'x-oauth-scopes': 'repo, workflow' });
    else if (token === 'github_pat_fine') response.writeHead(200, { 'content-type': 'application/json' });
    else return void response.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Bad credentials"}');
    response.end(JSON.stringify({ login: 'octo' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('testGitHubToken', () => {
  it('shows the login and the scopes of a classic token', async () => {
    const result = await testGitHubToken({ fetch, apiUrl, token: 'ghp_classic' });
    expect(result).toEqual({ kind: 'ok', login: 'octo', scopes: ['repo', 'workflow'] });
    expect(describeTokenTest(result)).toBe('Signed in as octo; scopes: repo, workflow.');
  });

  it('says a token without x-oauth-scopes is fine-grained', async () => {
    const result = await testGitHubToken({ fetch, apiUrl, token: 'github_pat_fine' });
    expect(describeTokenTest(result)).toMatch(/^Signed in as octo; a fine-grained token/);
  });

  it('says a refused token is bad, and an unreachable host may be offline', async () => {
    expect(describeTokenTest(await testGitHubToken({ fetch, apiUrl, token: 'nope' }))).toMatch(/refused this token/);
    const offline = await testGitHubToken({ fetch, apiUrl: 'http://127.0.0.1:1', token: 'ghp_classic' });
    expect(offline.kind).toBe('offline');
    expect(describeTokenTest(offline)).toMatch(/could not be reached.*offline/);
  });
});
