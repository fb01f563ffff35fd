import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MockRepo } from '../../../e2e/mock-github/fixture';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { GitHubClient } from './api';
import { RefNotFoundError } from './errors';
import { resolveRef } from './resolve';
import { at, failure, mockAccess } from './testing/mock-access';

let mock: MockGitHub;
let repo: MockRepo;
beforeAll(async () => {
  mock = await startMockGitHub();
  repo = await mock.addRepo({
    owner: 'octo', name: 'app', defaultBranch: 'trunk',
    branches: {
      trunk: [{ path: 'README.md', data: 'trunk\n' }],
      'feature/x': [{ path: 'packages/core/index.ts', data: 'x\n' }],
    },
    tags: { 'v2.0.0': [{ path: 'README.md', data: 'v2\n' }] },
  });
  await mock.addRepo({ owner: 'octo', name: 'empty', branches: {} });
});
afterAll(() => mock.close());
beforeEach(() => mock.resetCounts());

const resolve = (treePath: string, name = 'app') => resolveRef(new GitHubClient(mockAccess(mock)), at('octo', name, treePath));
const treeOf = (sha: string | undefined) => repo.commits.get(sha ?? '')?.treeSha;

it('takes the default branch when no ref is named', async () => {
  const sha = repo.branches.get('trunk');
  expect(await resolve('')).toEqual({ ref: 'trunk', sha, treeSha: treeOf(sha), folder: '', defaultBranch: 'trunk', private: false });
  expect(mock.counts.api).toBe(2);
});

it('resolves a tag and a commit id, full or abbreviated', async () => {
  expect((await resolve('v2.0.0')).sha).toBe(repo.tags.get('v2.0.0'));
  const sha = repo.branches.get('trunk') ?? '';
  expect(await resolve(sha)).toMatchObject({ ref: sha, sha, folder: '' });
  expect(await resolve(sha.slice(0, 7))).toMatchObject({ ref: sha.slice(0, 7), sha });
});

it('splits a slashed branch from its subfolder, shortest ref first, stopping at the first that exists', async () => {
  const resolved = await resolve('feature/x/packages/core');
  expect(resolved).toMatchObject({ ref: 'feature/x', sha: repo.branches.get('feature/x'), folder: 'packages/core' });
  // The repository, then `feature` (422), then `feature/x`.
  expect(mock.requests.map((r) => [r.path, r.status])).toEqual([
    ['/repos/octo/app', 200], ['/repos/octo/app/commits/feature', 422], ['/repos/octo/app/commits/feature/x', 200],
  ]);
});

it('names a ref that does not exist, and an empty repository', async () => {
  const error = await failure(resolve('nope'));
  expect(error).toBeInstanceOf(RefNotFoundError);
  expect(error.kind).toBe('ref-not-found');
  expect(error.message).toBe('octo/app has no branch, tag or commit "nope". Check the name on GitHub, or leave it out to import the default branch.');
  expect((await failure(resolve('nope/src'))).message).toMatch(/^octo\/app has no branch, tag or commit that "nope\/src" starts with\./);
  expect(await failure(resolve('', 'empty'))).toMatchObject({ kind: 'empty-repo', message: 'octo/empty is empty: it has no commits to import.' });
});
