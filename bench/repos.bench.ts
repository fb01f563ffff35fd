// Repos where they live (issue 20): the GitHub import against the loopback mock with 30 ms per request, in Node
// with its own fetch: listing, fetching and checking every file against its git id. Prints the time and the
// requests each import used against the hourly budgets (60 without a token, 5,000 with one); asserts nothing.
import { startMockGitHub } from '../e2e/mock-github/server';
import { manyFiles } from '../e2e/mock-github/sample-repos';
import { importGitHubRepo } from '../src/remote/github/import-repo';
import type { RepoLocation } from '../src/remote/repo-url';

const LATENCY_MS = 30;
const TOKEN = 'ghp_mock';

type Case = { name: string; owner: string; repo: string; files: number; bytesPerFile: number; token: boolean };

const cases: Case[] = [
  { name: 'public 2,000 files / 10 MB, no token', owner: 'octo', repo: 'public-2k', files: 2_000, bytesPerFile: 5_000, token: false },
  { name: '20,000 files / 48 MB, with a token', owner: 'octo', repo: 'big-20k', files: 20_000, bytesPerFile: 2_400, token: true },
];

const mock = await startMockGitHub({ latencyMs: 0 });
try {
  for (const c of cases) await mock.addRepo({ owner: c.owner, name: c.repo, branches: { main: manyFiles(c.files, c.bytesPerFile) } });
  mock.setLatency(LATENCY_MS);
  for (const c of cases) {
    mock.resetCounts();
    const location: RepoLocation = { host: 'github', origin: 'https://github.com', owner: c.owner, repo: c.repo, treePath: [] };
    const started = performance.now();
    const result = await importGitHubRepo(location, { fetch, apiUrl: mock.apiUrl, rawUrl: mock.rawUrl, ...(c.token ? { token: TOKEN } : {}) });
    const seconds = (performance.now() - started) / 1000;
    let bytes = 0;
    for (const data of result.files.values()) bytes += data.length;
    const budget = c.token ? 5_000 : 60;
    console.log(
      `github import, ${c.name}: ${result.files.size} files, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s ` +
        `(${LATENCY_MS} ms per request); requests: ${mock.counts.api} REST of ${budget} an hour, ${mock.counts.graphql} GraphQL, ${mock.counts.raw} raw (outside the limits)`,
    );
  }
} finally {
  await mock.close();
}
