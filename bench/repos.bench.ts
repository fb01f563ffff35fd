// Repos where they live (issue 20): the GitHub and GitLab imports against the loopback mocks with 30 ms per request,
// in Node with its own fetch (GitHub: listing, fetching and checking every file against its git id; GitLab: the
// archive through the zip import). Prints the time and the requests each import used (GitHub's against its hourly
// budgets: 60 without a token, 5,000 with one), and a pull request of 30 changed files; asserts nothing.
import { startMockGitHub } from '../e2e/mock-github/server';
import { manyFiles } from '../e2e/mock-github/sample-repos';
import { startMockGitLab } from '../e2e/mock-gitlab/server';
import { importGitHubRepo } from '../src/remote/github/import-repo';
import { pushToGitHub } from '../src/remote/github/push';
import type { FileChange } from '../src/remote/file-change';
import { importGitLabProject } from '../src/remote/gitlab/import-project';
import type { RepoLocation } from '../src/remote/repo-url';

const LATENCY_MS = 30;
/** The sample files as plain files (manyFiles makes no submodules or symlinks), for the GitLab mock's type. */
const textFiles = (count: number, bytes: number) => manyFiles(count, bytes).flatMap((f) => ('data' in f ? [f] : []));
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

  // A pull request of 30 changed files: 25 edits, 2 new files, a binary, a deletion and an executable.
  const prFiles = manyFiles(60, 400);
  const prRepo = await mock.addRepo({ owner: 'octo', name: 'pr-30', branches: { main: prFiles } });
  const encoder = new TextEncoder();
  const changes: FileChange[] = [
    ...prFiles.slice(0, 25).map((f): FileChange => ({ path: f.path, kind: 'modified', data: encoder.encode(`// edited\n${'data' in f ? f.data : ''}`) })),
    { path: 'docs/new.md', kind: 'added', data: encoder.encode('# New\n') },
    { path: 'scripts/run.sh', kind: 'added', data: encoder.encode('#!/bin/sh\necho hi\n'), executable: true },
    { path: 'assets/logo.png', kind: 'added', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0xff, 0xfe, 1, 2, 3]) },
    { path: prFiles[30].path, kind: 'deleted' },
    { path: prFiles[31].path, kind: 'modified', data: encoder.encode('export {};\n') },
  ];
  mock.resetCounts();
  const started = performance.now();
  const pushed = await pushToGitHub(
    { origin: { owner: 'octo', repo: 'pr-30', ref: 'main', sha: prRepo.branches.get('main') as string }, changes, branch: 'conch/bench', message: 'Bench', title: 'Bench', body: 'Thirty files.' },
    { fetch, apiUrl: mock.apiUrl, token: TOKEN },
  );
  const ms = performance.now() - started;
  console.log(`github pull request of ${changes.length} changed files: ${mock.counts.api} requests in ${ms.toFixed(0)} ms (${LATENCY_MS} ms per request); ${pushed.pullRequest.url}`);
} finally {
  await mock.close();
}

const gitlab = await startMockGitLab({ latencyMs: 0 });
try {
  for (const c of cases) gitlab.addProject({ namespace: 'group/sub', name: c.repo, branches: { main: textFiles(c.files, c.bytesPerFile) } });
  gitlab.setLatency(LATENCY_MS);
  for (const c of cases) {
    gitlab.resetCounts();
    const location: RepoLocation = { host: 'gitlab', origin: gitlab.baseUrl, owner: 'group/sub', repo: c.repo, treePath: [] };
    const started = performance.now();
    const result = await importGitLabProject(location, { fetch, baseUrl: gitlab.baseUrl });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `gitlab import, ${c.files.toLocaleString('en')} files: ${result.files.size} files, ${(result.totalBytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s ` +
        `(${LATENCY_MS} ms per request, the mock's zip made meanwhile); requests: ${gitlab.counts.api} API, ${gitlab.counts.archive} archive`,
    );
  }
} finally {
  await gitlab.close();
}
