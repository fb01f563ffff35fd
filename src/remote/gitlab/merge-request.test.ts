import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileChange } from '../file-change';
import { openGitLabMergeRequest, type GitLabMergeRequestOptions, type GitLabMergeRequestRequest, type MergeRequestRecord } from './merge-request';
import type { MergeRequestError } from './merge-request-errors';
import { GITLAB_TOKEN, READ_ONLY_TOKEN, startLoopbackGitLab, type LoopbackGitLab } from './testing/merge-request-loopback';

const encoder = new TextEncoder();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff]);
let gitlab: LoopbackGitLab;
beforeEach(async () => {
  gitlab = await startLoopbackGitLab({ 'README.md': '# app\n', 'src/a.ts': 'a\n', 'old.txt': 'old\n', 'docs/guide.md': 'guide\n' });
});
afterEach(() => gitlab.close());

const text = (path: string, content: string, kind: 'added' | 'modified' = 'modified'): FileChange => ({ path, kind, data: encoder.encode(content) });
const request = (changes: FileChange[], extra: Partial<GitLabMergeRequestRequest> = {}): GitLabMergeRequestRequest => ({
  origin: { project: gitlab.project, ref: 'main', sha: gitlab.startSha }, changes, branch: 'conch/fix-it', message: 'Fix it', title: 'Fix it', body: 'Made with Conch.', ...extra,
});
const access = (extra: Partial<GitLabMergeRequestOptions> = {}): GitLabMergeRequestOptions => ({ fetch, gitlabUrl: gitlab.url, token: GITLAB_TOKEN, ...extra });
async function failure(work: Promise<unknown>): Promise<MergeRequestError> {
  try {
    await work;
  } catch (error) {
    return error as MergeRequestError;
  }
  throw new Error('expected the merge request to fail, and it succeeded');
}

describe('a first merge request', () => {
  it('is one commit with every change as an action from the imported sha, then the merge request', async () => {
    const changes: FileChange[] = [
      text('README.md', '# app, fixed\n'),
      { path: 'assets/logo.png', kind: 'added', data: PNG },
      { path: 'bin/run', kind: 'added', data: encoder.encode('#!/bin/sh\n'), executable: true },
      { path: 'old.txt', kind: 'deleted' },
      { path: 'docs/guide.md', kind: 'deleted' },
      { path: 'docs/handbook.md', kind: 'added', data: encoder.encode('guide, renamed\n'), movedFrom: 'docs/guide.md' },
    ];
    const result = await openGitLabMergeRequest(request(changes), access());
    expect(gitlab.requests).toEqual(['POST /repository/commits', 'POST /merge_requests']);
    expect(result.requests).toBe(2);
    expect(result.mergeRequest).toMatchObject({ iid: 1, opened: true, url: `${gitlab.url}/group/sub/app/-/merge_requests/1` });
    expect(gitlab.mergeRequests[0]).toMatchObject({ source: 'conch/fix-it', target: 'main', title: 'Fix it', description: 'Made with Conch.' });
    expect(gitlab.commits.get(result.commit)?.parents).toEqual([gitlab.startSha]);
    const files = gitlab.filesOf('conch/fix-it');
    expect(files).toMatchObject({ 'README.md': '# app, fixed\n', 'bin/run*': '#!/bin/sh\n', 'docs/handbook.md': 'guide, renamed\n', 'src/a.ts': 'a\n' });
    expect(Object.keys(files)).not.toContain('old.txt');
    expect(Object.keys(files)).not.toContain('docs/guide.md');
    expect(encoder.encode(files['assets/logo.png']).length).toBeGreaterThan(0);
    expect(gitlab.commits.get(result.commit)?.files.get('assets/logo.png')?.data).toEqual(PNG);
  });

  it('says a read-only token cannot push, and changes nothing', async () => {
    const error = await failure(openGitLabMergeRequest(request([text('README.md', 'x\n')]), access({ token: READ_ONLY_TOKEN })));
    expect(error.kind).toBe('cannot-push');
    expect(error.message).toContain('Developer role');
    expect(gitlab.branches.has('conch/fix-it')).toBe(false);
  });
});

describe('push again', () => {
  it('adds a commit on the branch (no start_sha) with actions against what was pushed, and updates the same merge request', async () => {
    const first = await openGitLabMergeRequest(request([text('README.md', '# one\n'), text('new.ts', 'n\n', 'added'), { path: 'old.txt', kind: 'deleted' }, text('src/a.ts', 'a2\n')]), access());
    gitlab.requests.length = 0;
    // README edited again, new.ts edited, old.txt still deleted, src/a.ts put back as imported.
    const again = [text('README.md', '# two\n'), text('new.ts', 'n2\n', 'added'), { path: 'old.txt', kind: 'deleted' } as FileChange];
    const second = await openGitLabMergeRequest(request(again, { title: 'Fix it, twice' }), access({ record: first.record }));
    expect(gitlab.requests).toEqual([
      'GET /repository/branches/conch%2Ffix-it',
      'GET /repository/files/src%2Fa.ts/raw',
      'POST /repository/commits',
      'GET /merge_requests',
      'PUT /merge_requests/1',
    ]);
    expect(second.mergeRequest).toMatchObject({ iid: 1, opened: false });
    expect(gitlab.mergeRequests).toHaveLength(1);
    expect(gitlab.mergeRequests[0].title).toBe('Fix it, twice');
    expect(gitlab.commits.get(second.commit)?.parents).toEqual([first.commit]);
    expect(gitlab.filesOf('conch/fix-it')).toEqual({ 'README.md': '# two\n', 'new.ts': 'n2\n', 'src/a.ts': 'a\n', 'docs/guide.md': 'guide\n' });
  });

  it('a push from the shell (keepOpenText) adds its commit and leaves the open merge request\'s title and description alone', async () => {
    const first = await openGitLabMergeRequest(request([text('README.md', '# one\n')]), access());
    gitlab.requests.length = 0;
    const second = await openGitLabMergeRequest(request([text('README.md', '# two\n')], { title: 'Subject of the shell commit', body: '', keepOpenText: true }), access({ record: first.record }));
    expect(gitlab.requests).not.toContain('PUT /merge_requests/1');
    expect(second.mergeRequest).toMatchObject({ iid: 1, opened: false });
    expect(gitlab.mergeRequests[0]).toMatchObject({ title: 'Fix it', description: 'Made with Conch.' });
  });

  it('stops when someone else pushed to the branch, unless confirmed', async () => {
    const first = await openGitLabMergeRequest(request([text('README.md', '# one\n')]), access());
    gitlab.moveBranch('conch/fix-it');
    const moved = gitlab.branches.get('conch/fix-it');
    const error = await failure(openGitLabMergeRequest(request([text('README.md', '# two\n')]), access({ record: first.record })));
    expect(error.kind).toBe('branch-moved');
    expect(gitlab.branches.get('conch/fix-it')).toBe(moved);
    const confirmed = await openGitLabMergeRequest(request([text('README.md', '# two\n')]), access({ record: first.record, overwrite: true }));
    expect(gitlab.commits.get(confirmed.commit)?.parents).toEqual([moved]);
  });

  it('refuses a branch this session did not make', async () => {
    const error = await failure(openGitLabMergeRequest(request([text('README.md', '# one\n')], { branch: 'main' }), access()));
    expect(error.kind).toBe('branch-exists');
    expect(gitlab.branches.get('main')).toBe(gitlab.startSha);
  });

  it('after a failed merge request, a retry does not commit again', async () => {
    let stored: MergeRequestRecord | undefined;
    gitlab.failNext('POST /merge_requests');
    const failed = await failure(openGitLabMergeRequest(request([text('README.md', '# one\n')]), access({ onRecord: (r) => (stored = r) })));
    expect(failed.kind).toBe('unexpected');
    expect(stored?.pushed).toBe(gitlab.branches.get('conch/fix-it'));
    gitlab.requests.length = 0;
    const retried = await openGitLabMergeRequest(request([text('README.md', '# one\n')]), access({ record: stored }));
    expect(gitlab.requests).toEqual(['GET /repository/branches/conch%2Ffix-it', 'GET /merge_requests', 'POST /merge_requests']);
    expect(retried.commit).toBe(stored?.pushed);
    expect(gitlab.mergeRequests).toHaveLength(1);
  });
});
