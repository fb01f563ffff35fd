// The errors an import can meet, as the person reads them, against the loopback mock.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { clockTime } from './errors';
import { graphqlUrlOf } from './api';
import { importGitHubRepo } from './import-repo';
import { at, failure, mockAccess, TOKEN } from './testing/mock-access';

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub();
  await mock.addRepo({ owner: 'octo', name: 'open', branches: { main: [{ path: 'a.txt', data: 'a\n' }, { path: 'b.txt', data: 'b\n' }] } });
  await mock.addRepo({ owner: 'octo', name: 'secret', private: true, branches: { main: [{ path: 's.txt', data: 's\n' }] } });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetCounts();
  mock.setRateRemaining(60);
  mock.setRateRemaining(5000, { token: TOKEN });
  mock.setRateRemaining(5000, { token: TOKEN, resource: 'graphql' });
});

it('says until when the rate limit is used up, in local time, and to add a token', async () => {
  mock.setRateRemaining(0);
  const error = await failure(importGitHubRepo(at('octo', 'open'), mockAccess(mock)));
  const reset = new Date(mock.rateLimitReset() * 1000);
  expect(error.kind).toBe('rate-limit');
  expect(error.message).toBe(`GitHub's rate limit is used up until ${clockTime(reset)} (local time). Add a token in Settings to raise it to 5,000 requests an hour.`);
  expect(clockTime(new Date(2024, 0, 1, 9, 5))).toBe('09:05');
});

it('with a token, says when to try again, for REST and for GraphQL', async () => {
  mock.setRateRemaining(0, { token: TOKEN });
  const rest = await failure(importGitHubRepo(at('octo', 'open'), mockAccess(mock, { token: true })));
  expect(rest.message).toBe(`GitHub's rate limit is used up until ${clockTime(new Date(mock.rateLimitReset({ token: TOKEN }) * 1000))} (local time). Try again then.`);
  mock.setRateRemaining(5000, { token: TOKEN });
  mock.setRateRemaining(0, { token: TOKEN, resource: 'graphql' });
  const graphql = await failure(importGitHubRepo(at('octo', 'open'), mockAccess(mock, { token: true })));
  expect(graphql.kind).toBe('rate-limit');
  expect(mock.counts.graphql).toBe(1);
});

it('waits out a secondary rate limit for its Retry-After, then carries on', async () => {
  mock.secondaryLimit(2, 1);
  const started = Date.now();
  const result = await importGitHubRepo(at('octo', 'open'), mockAccess(mock));
  expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  expect(result.files.size).toBe(2);
  expect(result.requests).toEqual({ api: 5, graphql: 0, raw: 2 });
  expect(mock.requests.slice(0, 3).map((r) => r.status)).toEqual([403, 403, 200]);
});

it('gives up on a secondary limit longer than it waits, saying when to retry', async () => {
  mock.secondaryLimit(1, 600);
  const error = await failure(importGitHubRepo(at('octo', 'open'), mockAccess(mock)));
  expect(error).toMatchObject({ kind: 'secondary-limit', message: 'GitHub asked Conch to slow down (a secondary rate limit): try again in 10 minutes.' });
  mock.secondaryLimit(5, 0);
  const persistent = await failure(importGitHubRepo(at('octo', 'open'), mockAccess(mock)));
  expect(persistent.message).toBe('GitHub asked Conch to slow down (a secondary rate limit): try again in a second.');
  // The first request and three retries.
  expect(mock.requests.filter((r) => r.status === 403)).toHaveLength(4 + 1);
  mock.secondaryLimit(0, 0);
});

it('says a private repository needs a token with Contents: read, and imports it with one', async () => {
  const error = await failure(importGitHubRepo(at('octo', 'secret'), mockAccess(mock)));
  expect(error).toMatchObject({ kind: 'repo-not-found', message: 'octo/secret was not found, or it is private: add a token with Contents: read in Settings.' });
  const result = await importGitHubRepo(at('octo', 'secret'), mockAccess(mock, { token: true }));
  expect(new TextDecoder().decode(result.files.get('s.txt'))).toBe('s\n');
  const bad = await failure(importGitHubRepo(at('octo', 'secret'), { ...mockAccess(mock), token: 'ghp_wrong' }));
  expect(bad.kind).toBe('bad-token');
});

it('says GitHub could not be reached when nothing listens', async () => {
  const port = await closedPort();
  const error = await failure(importGitHubRepo(at('octo', 'open'), { fetch, apiUrl: `http://127.0.0.1:${port}`, rawUrl: `http://127.0.0.1:${port}` }));
  expect(error).toMatchObject({ kind: 'offline', message: 'GitHub could not be reached: you may be offline.' });
});

it('finds GraphQL beside the REST base URL, Enterprise too', () => {
  expect(graphqlUrlOf('https://api.github.com')).toBe('https://api.github.com/graphql');
  expect(graphqlUrlOf('https://git.example.com/api/v3/')).toBe('https://git.example.com/api/graphql');
});

it('reaches an Enterprise-style mock under /api/v3 with its GraphQL at /api/graphql', async () => {
  const enterprise = await startMockGitHub({ apiPrefix: '/api/v3', repos: [{ owner: 'octo', name: 'open', branches: { main: [{ path: 'a.txt', data: 'a\n' }] } }] });
  try {
    const result = await importGitHubRepo(at('octo', 'open'), mockAccess(enterprise, { token: true }));
    expect(result.files.size).toBe(1);
    expect(enterprise.requests.map((r) => r.path.split('/').slice(0, 3).join('/'))).toEqual(['/api/v3', '/api/v3', '/api/v3', '/api/graphql']);
  } finally {
    await enterprise.close();
  }
});

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
