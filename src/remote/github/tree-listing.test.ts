import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { manyFiles } from '../../../e2e/mock-github/sample-repos';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { GitHubClient } from './api';
import { resolveRef } from './resolve';
import { listFiles } from './tree-listing';
import { at, failure, mockAccess } from './testing/mock-access';

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub();
  await mock.addRepo({
    owner: 'octo', name: 'big',
    branches: { main: [
      ...manyFiles(300, 40),
      { path: 'tools/build.sh', data: '#!/bin/sh\n', executable: true },
      { path: 'tools/latest', symlink: 'build.sh' },
      { path: 'vendor/dep', submodule: 'b'.repeat(40) },
    ] },
  });
  await mock.addRepo({ owner: 'octo', name: 'climb', branches: { main: [{ path: 'a/../../etc/passwd', data: 'x' }] } });
  await mock.addRepo({ owner: 'octo', name: 'hooks', branches: { main: [{ path: 'x/.GIT/hooks/post-checkout', data: 'x' }] } });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetCounts();
  mock.setTreeEntryCap(100_000);
});

async function list(name: string, treePath = '') {
  const client = new GitHubClient(mockAccess(mock));
  const location = at('octo', name, treePath);
  return listFiles(client, location, await resolveRef(client, location));
}

it('lists every blob with its id, size and mode, and submodules as not imported', async () => {
  const listing = await list('big');
  expect(listing.files).toHaveLength(302);
  expect(listing.files.find((f) => f.path === 'tools/build.sh')).toMatchObject({ mode: 'executable', size: 10 });
  expect(listing.files.find((f) => f.path === 'tools/latest')).toMatchObject({ mode: 'symlink', size: 8 });
  expect(listing.files.find((f) => f.path === 'src/part0/file0.ts')).toMatchObject({ mode: 'file', repoPath: 'src/part0/file0.ts' });
  expect(listing.skipped).toEqual([{ path: 'vendor/dep', reason: 'submodule' }]);
  expect(mock.counts.api).toBe(3);
});

it('finishes a truncated listing by walking subtrees, to the same files', async () => {
  const whole = await list('big');
  mock.resetCounts();
  mock.setTreeEntryCap(60);
  const walked = await list('big');
  expect(walked).toEqual(whole);
  const truncated = mock.requests.filter((r) => r.path.includes('/git/trees/'));
  // root (cut short), root alone, src (cut short), src alone, then each folder whole: 6 src/partN, tools, vendor.
  expect(truncated.length).toBe(4 + 6 + 2);
});

it('lists only the chosen subfolder, paths relative to it', async () => {
  const listing = await list('big', 'main/tools');
  expect(listing.files.map((f) => [f.path, f.repoPath, f.mode])).toEqual([['build.sh', 'tools/build.sh', 'executable'], ['latest', 'tools/latest', 'symlink']]);
  expect(listing.skipped).toEqual([]);
  expect(await failure(list('big', 'main/nowhere'))).toMatchObject({
    kind: 'folder-not-found', message: 'octo/big has no folder "nowhere" at main. Check the address, or import the whole repository.',
  });
});

it('refuses a listing that climbs out with ".." or writes into .git', async () => {
  expect(await failure(list('climb'))).toMatchObject({ kind: 'unsafe-path', message: 'GitHub listed "a/..", which climbs out of the folder with "..". Nothing was imported.' });
  expect((await failure(list('hooks'))).kind).toBe('unsafe-path');
});
