import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MockFileSpec } from '../../../e2e/mock-github/fixture';
import { manyFiles } from '../../../e2e/mock-github/sample-repos';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { gitBlobId } from '../../runtime/object-id';
import { ImportCancelledError } from '../../store/errors';
import { CorruptFileError, RepoTooLargeError } from './errors';
import { importGitHubRepo, type GitHubImportProgress } from './import-repo';
import { at, failure, mockAccess } from './testing/mock-access';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const LATIN1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1: no NUL, not UTF-8
const LFS = 'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n';
const BIG = 'x'.repeat(300 * 1024);
const many = manyFiles(2000);
const special: MockFileSpec[] = [
  { path: 'assets/logo.png', data: PNG },
  { path: 'docs/latin1.txt', data: LATIN1 },
  { path: 'data/big.txt', data: BIG },
  { path: 'media/video.mp4', data: LFS },
  { path: 'bin/run', data: '#!/bin/sh\necho run\n', executable: true },
  { path: 'bin/latest', symlink: 'run' },
  { path: 'third_party/lib', submodule: 'c'.repeat(40) },
  { path: 'copy-a.txt', data: 'same\n' },
  { path: 'copy-b.txt', data: 'same\n' },
];

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub();
  await mock.addRepo({ owner: 'octo', name: 'many', branches: { main: many } });
  await mock.addRepo({ owner: 'octo', name: 'mixed', branches: { main: [...manyFiles(20), ...special] } });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetCounts();
  mock.setLatency(0);
});

/** The paths of `expected` whose bytes `files` does not hold (compared in bulk: 2,000 deep equals are slow). */
const differing = (files: Map<string, Uint8Array>, expected: MockFileSpec[]) =>
  expected.filter((file) => !Buffer.from(files.get(file.path) ?? []).equals(bytesOf(file) ?? new Uint8Array())).map((file) => file.path);

const bytesOf = (file: MockFileSpec) => ('data' in file ? (typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data) : null);

it('imports a public repository through the raw host: one raw request a file, three API requests', async () => {
  const progress: GitHubImportProgress[] = [];
  const result = await importGitHubRepo(at('octo', 'many'), { ...mockAccess(mock), onProgress: (p) => progress.push(p) });
  expect(result.files.size).toBe(2000);
  expect(differing(result.files, many)).toEqual([]);
  expect(result.origin).toEqual({ host: 'github', owner: 'octo', repo: 'many', ref: 'main', sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
  expect(result.requests).toEqual({ api: 3, graphql: 0, raw: 2000 });
  expect(mock.counts).toEqual(result.requests);
  expect(mock.requests.filter((r) => r.kind === 'raw').every((r) => r.token === null && r.path.includes(result.origin.sha))).toBe(true);
  expect(progress[0]).toEqual({ phase: 'listing' });
  expect(progress.at(-1)).toEqual({ phase: 'fetching', files: 2000, bytes: result.totalBytes, totalFiles: 2000, totalBytes: result.totalBytes });
});

it('imports with a token through GraphQL batches: 2,000 files in a handful of requests', async () => {
  const result = await importGitHubRepo(at('octo', 'many'), mockAccess(mock, { token: true }));
  expect(result.files.size).toBe(2000);
  expect(differing(result.files, many)).toEqual([]);
  expect(result.requests).toEqual({ api: 3, graphql: 8, raw: 0 });
  expect(mock.requests.every((r) => r.token === 'ghp_mock')).toBe(true);
});

it('reads binary, non-UTF-8 and large files from the blobs API, and keeps modes, symlinks and what is not imported', async () => {
  for (const token of [true, false]) {
    mock.resetCounts();
    const result = await importGitHubRepo(at('octo', 'mixed'), mockAccess(mock, { token }));
    expect(result.files.get('assets/logo.png')).toEqual(PNG);
    expect(result.files.get('docs/latin1.txt')).toEqual(LATIN1);
    expect(new TextDecoder().decode(result.files.get('data/big.txt'))).toBe(BIG);
    expect(result.executables).toEqual(new Set(['bin/run']));
    expect(result.symlinks).toEqual(new Map([['bin/latest', 'run']]));
    expect(result.files.has('bin/latest')).toBe(false);
    expect(result.skipped).toEqual([{ path: 'media/video.mp4', reason: 'lfs-pointer' }, { path: 'third_party/lib', reason: 'submodule' }]);
    expect(result.files.has('media/video.mp4')).toBe(false);
    expect(result.files.get('copy-b.txt')).toEqual(result.files.get('copy-a.txt'));
    // 28 listed blobs, one of them twice: 27 fetched. With a token: png and latin1 after GraphQL, big.txt directly.
    expect(result.requests).toEqual(token ? { api: 3 + 3, graphql: 1, raw: 0 } : { api: 3, graphql: 0, raw: 27 });
  }
});

it('imports only a subfolder, paths relative to it', async () => {
  const result = await importGitHubRepo(at('octo', 'mixed', 'main/bin'), mockAccess(mock));
  expect([...result.files.keys()]).toEqual(['run']);
  expect(result.symlinks).toEqual(new Map([['latest', 'run']]));
  expect(result.folder).toBe('bin');
  expect(result.origin.ref).toBe('main');
});

it('refuses a repository over the limits before fetching any file', async () => {
  const files = await failure(importGitHubRepo(at('octo', 'many'), { ...mockAccess(mock), limits: { maxFiles: 1000 } }));
  expect(files).toBeInstanceOf(RepoTooLargeError);
  expect(files.message).toBe('octo/many has 2,000 files; the limit is 1,000. Nothing was imported; import one folder of it (…/tree/BRANCH/FOLDER) instead.');
  const bytes = (await failure(importGitHubRepo(at('octo', 'many'), { ...mockAccess(mock), limits: { maxTotalBytes: 100_000 } }))).message;
  expect(bytes).toMatch(/^octo\/many holds 4\d\d\.\d KB; the limit is 97\.7 KB\./);
  expect(mock.counts.raw).toBe(0);
});

it('cancels mid-import: every request stops and nothing is returned', async () => {
  mock.setLatency(5);
  const controller = new AbortController();
  const outcome = importGitHubRepo(at('octo', 'many'), {
    ...mockAccess(mock), signal: controller.signal,
    onProgress: (p) => void (p.phase === 'fetching' && p.files >= 100 && controller.abort()),
  });
  await expect(outcome).rejects.toBeInstanceOf(ImportCancelledError);
  const sent = mock.counts.raw;
  expect(sent).toBeLessThan(200);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(mock.counts.raw).toBeLessThanOrEqual(sent + 16);
});

it('refuses a file whose bytes do not match its id, through the raw host and through GraphQL', async () => {
  const target = many[7];
  const sha = await gitBlobId(bytesOf(target) ?? new Uint8Array());
  const bad = await startMockGitHub({ repos: [{ owner: 'octo', name: 'bad', branches: { main: many.slice(0, 20) } }] });
  bad.corruptBlob(sha);
  try {
    for (const token of [false, true]) {
      const error = await failure(importGitHubRepo(at('octo', 'bad'), mockAccess(bad, { token })));
      expect(error).toBeInstanceOf(CorruptFileError);
      expect(error.message).toBe(`"${target.path}" arrived damaged (its bytes do not match GitHub's id for it). Nothing was imported; try again.`);
    }
  } finally {
    await bad.close();
  }
});
