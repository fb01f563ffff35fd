import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { forkRepo } from './fork';
import { pushToGitHub } from './push';
import { CannotPushError, MissingPermissionError } from './push-errors';
import { failure } from './testing/mock-access';
import { branchFiles, freshRepo, pushAccess, pushOf, text } from './testing/push-fixture';
import { describeTokenTest, testGitHubToken } from './token-test';

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub({
    grants: {
      ghp_readonly: { login: 'fan', contents: 'read' },
      ghp_classic_readonly: { login: 'fan2', scopes: ['public_repo'], contents: 'read' },
      ghp_nopulls: { login: 'dev', pullRequests: 'read' },
      ghp_noworkflow: { login: 'dev', scopes: ['repo'], workflows: false },
    },
  });
});
afterAll(() => mock.close());
beforeEach(() => mock.resetCounts());

describe('a token that cannot push', () => {
  it('is told so with the fork offered, whether GitHub answers 403 (fine-grained) or 404 (classic)', async () => {
    const origin = await freshRepo(mock);
    for (const token of ['ghp_readonly', 'ghp_classic_readonly']) {
      const error = await failure(pushToGitHub(pushOf(origin, [text('README.md', '# mine\n')]), pushAccess(mock, { token })));
      expect(error.kind).toBe('cannot-push');
      expect((error as CannotPushError).missing).toBe('Contents: write');
      expect(error.message).toContain(`Fork octo/${origin.repo}`);
    }
    expect(mock.repo('octo', origin.repo)?.branches.size).toBe(1);
  });

  it('forks, waits for the fork to answer, and opens the pull request from the fork into the original', async () => {
    const origin = await freshRepo(mock);
    const access = pushAccess(mock, { token: 'ghp_readonly' });
    const fork = await forkRepo({ owner: origin.owner, repo: origin.repo }, { ...access, firstWaitMs: 5 });
    expect(fork).toEqual({ owner: 'fan', repo: origin.repo });
    const polls = mock.requests.filter((r) => r.method === 'GET' && r.path === `/repos/fan/${origin.repo}`);
    expect(polls.map((r) => r.status)).toEqual([404, 404, 200]);

    const result = await pushToGitHub(pushOf(origin, [text('README.md', '# from a fork\n')], { fork }), access);
    expect(mock.repo('octo', origin.repo)?.branches.has('conch/fix-the-bug')).toBe(false);
    expect(mock.pulls('octo', origin.repo)[0]).toMatchObject({ headOwner: 'fan', head: 'conch/fix-the-bug', base: 'main' });
    expect(result.pullRequest.url).toMatch(new RegExp(`/octo/${origin.repo}/pull/1$`));
    const branch = await branchFiles(mock, 'fan', origin.repo, 'conch/fix-the-bug');
    expect(new TextDecoder().decode(branch.files.get('README.md'))).toBe('# from a fork\n');
  });

  it('gives up waiting for a fork that never answers, and can be cancelled', async () => {
    const slow = await startMockGitHub({ forkAnswersAfter: 1000 });
    try {
      const origin = await freshRepo(slow);
      const access = { ...pushAccess(slow), firstWaitMs: 5, maxWaitMs: 40 };
      const late = await failure(forkRepo({ owner: origin.owner, repo: origin.repo }, access));
      expect(late.message).toContain('try again in a minute');
      const stop = new AbortController();
      const waiting = forkRepo({ owner: origin.owner, repo: origin.repo }, { ...access, maxWaitMs: 60_000, signal: stop.signal });
      setTimeout(() => stop.abort(), 30);
      await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await slow.close();
    }
  });
});

describe('a missing permission is named', () => {
  it('Pull requests: write, after the branch is pushed', async () => {
    const origin = await freshRepo(mock);
    const error = await failure(pushToGitHub(pushOf(origin, [text('README.md', '# x\n')]), pushAccess(mock, { token: 'ghp_nopulls' })));
    expect(error.kind).toBe('missing-permission');
    expect((error as MissingPermissionError).missing).toBe('Pull requests: write');
    expect(error.message).toContain('Pull requests: write');
    expect(mock.repo('octo', origin.repo)?.branches.has('conch/fix-the-bug')).toBe(true);
  });

  it('Workflows, when a file under .github/workflows changed', async () => {
    const origin = await freshRepo(mock);
    const changes = [text('README.md', '# x\n'), text('.github/workflows/ci.yml', 'on: [push, pull_request]\n')];
    const error = await failure(pushToGitHub(pushOf(origin, changes), pushAccess(mock, { token: 'ghp_noworkflow' })));
    expect(error.kind).toBe('missing-permission');
    expect((error as MissingPermissionError).missing).toBe('Workflows');
    expect(error.message).toContain('.github/workflows/ci.yml');
    expect(mock.repo('octo', origin.repo)?.branches.has('conch/fix-the-bug')).toBe(false);
    // The same token pushes changes elsewhere.
    await pushToGitHub(pushOf(origin, [text('README.md', '# x\n')], { branch: 'conch/other' }), pushAccess(mock, { token: 'ghp_noworkflow' }));
  });
});

describe('Test token', () => {
  it('reports a classic token\'s login and scopes, and a fine-grained token as such, against the mock\'s grants', async () => {
    const classic = await testGitHubToken({ fetch, apiUrl: mock.apiUrl, token: 'ghp_noworkflow' });
    expect(classic).toEqual({ kind: 'ok', login: 'dev', scopes: ['repo'] });
    expect(describeTokenTest(classic)).toBe('Signed in as dev; scopes: repo.');
    const fine = await testGitHubToken({ fetch, apiUrl: mock.apiUrl, token: 'ghp_readonly' });
    expect(fine).toEqual({ kind: 'ok', login: 'fan', scopes: null });
    expect(describeTokenTest(fine)).toContain('fine-grained');
  });

  it('says when GitHub refuses the token', async () => {
    const result = await testGitHubToken({ fetch, apiUrl: mock.apiUrl, token: 'ghp_wrong' });
    expect(result.kind).toBe('rejected');
    expect(describeTokenTest(result)).toMatch(/refused this token/);
  });
});
