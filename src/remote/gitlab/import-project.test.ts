import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { MockProject } from '../../../e2e/mock-gitlab/fixture';
import { startMockGitLab, type MockGitLab } from '../../../e2e/mock-gitlab/server';
import { clockTime } from '../local-time';
import { ImportCancelledError, ZipImportError } from '../../store/errors';
import { ArchiveTooLargeError, FolderNotFoundError, OfflineError, ProjectNotFoundError, RateLimitError, RefNotFoundError } from './errors';
import { importGitLabProject, type GitLabImportProgress } from './import-project';
import { at, failure, mockAccess } from './testing/mock-access';

const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);
const NOISE = randomBytes(1024 * 1024);

let mock: MockGitLab;
let app: MockProject;
beforeAll(async () => {
  mock = await startMockGitLab();
  app = mock.addProject({
    namespace: 'group/sub', name: 'app',
    branches: {
      main: [
        { path: 'README.md', data: '# app\n' },
        { path: 'src/index.ts', data: 'export {};\n' },
        { path: 'bin/run', data: '#!/bin/sh\n', executable: true },
        { path: 'latest', symlink: 'bin/run' },
      ],
      'feature/x': [
        { path: 'README.md', data: 'feature\n' },
        { path: 'packages/web/index.html', data: '<p>web</p>\n' },
        { path: 'packages/web/src/main.ts', data: 'main();\n' },
        { path: 'packages/api/server.ts', data: 'serve();\n' },
      ],
    },
    tags: { 'v1.0': [{ path: 'README.md', data: '# app v1\n' }] },
  });
  mock.addProject({ namespace: 'group', name: 'secret', private: true, branches: { main: [{ path: 'key.txt', data: 'hidden\n' }] } });
  mock.addProject({ namespace: 'group', name: 'heavy', branches: { main: [{ path: 'noise.bin', data: NOISE }] } });
});
afterAll(() => mock.close());
beforeEach(() => {
  mock.resetCounts();
  mock.setArchiveStreaming({ chunkBytes: 64 * 1024, chunkDelayMs: 0, contentLength: false });
});

it('imports the default branch of a public project in three requests, the top folder stripped, progress in bytes', async () => {
  const progress: GitLabImportProgress[] = [];
  const result = await importGitLabProject(at(mock, 'group/sub/app'), { ...mockAccess(mock), onProgress: (p) => progress.push(p) });
  expect([...result.files.keys()].sort()).toEqual(['README.md', 'bin/run', 'src/index.ts']);
  expect(text(result.files.get('README.md'))).toBe('# app\n');
  expect(result.skipped).toEqual([{ path: 'latest', reason: 'symlink' }]);
  expect(result.origin).toEqual({ host: 'gitlab', owner: 'group/sub', repo: 'app', ref: 'main', sha: app.refs.get('main') });
  expect(result.folder).toBe('');
  expect(result.requests).toEqual({ api: 2, archive: 1 });
  expect(mock.counts).toEqual(result.requests);
  expect(mock.requests.map((r) => r.path)).toEqual([
    '/api/v4/projects/group%2Fsub%2Fapp', `/api/v4/projects/${app.id}/repository/commits/main`,
    `/api/v4/projects/${app.id}/repository/archive.zip?sha=${app.refs.get('main')}`,
  ]);
  expect(progress[0]).toEqual({ phase: 'listing' });
  const fetching = progress.filter((p) => p.phase === 'fetching');
  expect(fetching.at(-1)).toEqual({ phase: 'fetching', bytes: expect.any(Number), totalBytes: null });
  expect(fetching.at(-1)!.phase === 'fetching' && fetching.at(-1)!.bytes).toBeGreaterThan(100);
  expect(progress.at(-1)).toMatchObject({ phase: 'unpacking', files: 3, totalFiles: 3 });
});

it('imports a tag, and a slashed branch with a subfolder, paths relative to the folder', async () => {
  const tag = await importGitLabProject(at(mock, 'group/sub/app', 'v1.0'), mockAccess(mock));
  expect([...tag.files]).toEqual([['README.md', new TextEncoder().encode('# app v1\n')]]);
  expect(tag.origin).toMatchObject({ ref: 'v1.0', sha: app.refs.get('v1.0') });

  mock.resetCounts();
  const web = await importGitLabProject(at(mock, 'group/sub/app', 'feature/x/packages/web'), mockAccess(mock));
  expect([...web.files.keys()].sort()).toEqual(['index.html', 'src/main.ts']);
  expect(text(web.files.get('src/main.ts'))).toBe('main();\n');
  expect(web.origin).toMatchObject({ ref: 'feature/x', sha: app.refs.get('feature/x') });
  expect(web.folder).toBe('packages/web');
  // `feature` is tried first and does not exist; then `feature/x` does, and only its folder is downloaded.
  expect(mock.requests.map((r) => [r.status, r.path.replace(/^\/api\/v4\/projects\/[^/]+/, '')])).toEqual([
    [200, ''], [404, '/repository/commits/feature'], [200, '/repository/commits/feature%2Fx'],
    [200, `/repository/archive.zip?sha=${app.refs.get('feature/x')}&path=packages%2Fweb`],
  ]);
});

it('says a folder that is not there is not there', async () => {
  const error = await failure(importGitLabProject(at(mock, 'group/sub/app', 'main/nowhere'), mockAccess(mock)));
  expect(error).toBeInstanceOf(FolderNotFoundError);
  expect(error.message).toBe('group/sub/app has no folder "nowhere" at main. Check the address, or import the whole project.');
});

it('tells a private project without a token to add one, and imports it with one', async () => {
  const hidden = await failure(importGitLabProject(at(mock, 'group/secret'), mockAccess(mock)));
  expect(hidden).toBeInstanceOf(ProjectNotFoundError);
  expect(hidden.message).toBe('group/secret was not found, or it is private: add a GitLab token with read_api (or read_repository) in Settings.');
  const result = await importGitLabProject(at(mock, 'group/secret'), mockAccess(mock, { token: true }));
  expect(text(result.files.get('key.txt'))).toBe('hidden\n');
  expect(mock.requests.filter((r) => r.status === 200).every((r) => r.token === 'glpat-mock')).toBe(true);
});

it('names a ref that is not there', async () => {
  const error = await failure(importGitLabProject(at(mock, 'group/sub/app', 'nope'), mockAccess(mock)));
  expect(error).toBeInstanceOf(RefNotFoundError);
  expect(error.message).toBe('group/sub/app has no branch, tag or commit "nope". Check the name on GitLab, or leave it out to import the default branch.');
  const slashed = await failure(importGitLabProject(at(mock, 'group/sub/app', 'no/such/ref'), mockAccess(mock)));
  expect(slashed.message).toContain('has no branch, tag or commit that "no/such/ref" starts with.');
});

it('says when to retry after a 429, on the local clock', async () => {
  mock.throttle(1, 120);
  const error = await failure(importGitLabProject(at(mock, 'group/sub/app'), mockAccess(mock)));
  expect(error).toBeInstanceOf(RateLimitError);
  const retryAt = (error as RateLimitError).retryAt.getTime();
  expect(Math.abs(retryAt - (Date.now() + 120_000))).toBeLessThan(5000);
  expect(error.message).toBe(
    `GitLab is limiting requests (429 Too Many Requests): try again at ${clockTime(new Date(retryAt))} (local time). A GitLab token in Settings raises the limit.`,
  );
});

it('says GitLab could not be reached when nothing listens', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const error = await failure(importGitLabProject(at(mock, 'group/sub/app'), { fetch, baseUrl: `http://127.0.0.1:${port}` }));
  expect(error).toBeInstanceOf(OfflineError);
  expect(error.message).toBe('GitLab could not be reached: you may be offline.');
});

it("refuses an archive past the limits with the zip import's message", async () => {
  const files = await failure(importGitLabProject(at(mock, 'group/sub/app'), { ...mockAccess(mock), limits: { maxFiles: 2 } }));
  expect(files).toBeInstanceOf(ZipImportError);
  expect(files.message).toBe('The zip has 3 files; the limit is 2. Nothing was imported; leave out generated folders (node_modules, build output) and try again.');
  const bytes = await failure(importGitLabProject(at(mock, 'group/sub/app'), { ...mockAccess(mock), limits: { maxTotalBytes: 20 } }));
  expect(bytes.message).toBe('The zip unpacks to 27 bytes; the limit is 20 bytes. Nothing was imported; leave out large generated or binary files and try again.');
});

it('stops a download that grows past what the limits allow, before it ends', async () => {
  mock.setArchiveStreaming({ chunkBytes: 16 * 1024 });
  const error = await failure(importGitLabProject(at(mock, 'group/heavy'), { ...mockAccess(mock), limits: { maxTotalBytes: 100 * 1024, maxFiles: 10 } }));
  expect(error).toBeInstanceOf(ArchiveTooLargeError);
  expect(error.message).toBe(
    "group/heavy's archive passed 140.0 KB while downloading: more than a project within the import limit of 100.0 KB can weigh. " +
      'Nothing was imported; import one folder of it (…/-/tree/BRANCH/FOLDER) instead.',
  );
});

it('cancels mid-download, and reports the total when GitLab sends a length', async () => {
  mock.setArchiveStreaming({ chunkBytes: 16 * 1024, chunkDelayMs: 5, contentLength: true });
  const controller = new AbortController();
  const seen: number[] = [];
  const work = importGitLabProject(at(mock, 'group/heavy'), {
    ...mockAccess(mock, { signal: controller.signal }),
    onProgress: (p) => {
      if (p.phase !== 'fetching' || p.bytes === 0) return;
      expect(p.totalBytes).toBeGreaterThan(NOISE.length);
      seen.push(p.bytes);
      if (seen.length === 3) controller.abort();
    },
  });
  const error = await failure(work);
  expect(error).toBeInstanceOf(ImportCancelledError);
  expect(error.message).toBe('Import cancelled; nothing was changed.');
  // Stopped three chunks in, long before the megabyte's end.
  expect(seen).toHaveLength(3);
  expect(seen[2]).toBeLessThan(NOISE.length / 2);
});
