import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { executablesAt } from './base-modes';
import { TOKEN } from './testing/mock-access';

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub();
});
afterAll(() => mock.close());

it('names the modified files that are executables, listing only the folders that hold them', async () => {
  const repo = await mock.addRepo({
    owner: 'octo', name: 'modes', branches: {
      main: [
        { path: 'run.sh', data: '#!/bin/sh\n', executable: true },
        { path: 'README.md', data: '# modes\n' },
        { path: 'bin/tool', data: '#!/bin/sh\n', executable: true },
        { path: 'bin/notes.txt', data: 'notes\n' },
        { path: 'deep/a/b/c.sh', data: '#!/bin/sh\n', executable: true },
        { path: 'other/x.js', data: '1\n' },
      ],
    },
  });
  mock.resetCounts();
  const origin = { owner: 'octo', repo: 'modes', sha: repo.branches.get('main') as string };
  const paths = ['run.sh', 'README.md', 'bin/tool', 'bin/notes.txt', 'deep/a/b/c.sh', 'gone/missing.txt'];
  const found = await executablesAt(origin, paths, { fetch, apiUrl: mock.apiUrl, token: TOKEN });
  expect([...found.executables].sort()).toEqual(['bin/tool', 'deep/a/b/c.sh', 'run.sh']);
  expect(found.tree).toBe(repo.commits.get(origin.sha)?.treeSha);
  // The commit, the root, bin, deep, deep/a, deep/a/b; never other/.
  expect(mock.counts.api).toBe(6);
  expect(mock.requests.some((r) => r.path.includes('recursive'))).toBe(false);

  // Given the tree (a push's record has it), the commit is not read again.
  mock.resetCounts();
  const again = await executablesAt({ ...origin, tree: found.tree }, ['run.sh'], { fetch, apiUrl: mock.apiUrl, token: TOKEN });
  expect([...again.executables]).toEqual(['run.sh']);
  expect(mock.counts.api).toBe(1);
});
