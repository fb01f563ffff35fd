import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../e2e/mock-github/server';
import { branchNameFor } from '../branch-name';
import type { FileChange } from '../file-change';
import { pushToGitHub, type PushRecord } from './push';
import { failure } from './testing/mock-access';
import { branchFiles, freshRepo, PNG, pushAccess, pushOf, sequence, text } from './testing/push-fixture';

let mock: MockGitHub;
beforeAll(async () => {
  mock = await startMockGitHub();
});
afterAll(() => mock.close());
beforeEach(() => mock.resetCounts());

/** 30 changes: 25 edits, a new text file, a binary, a deletion, an executable and a symlink. */
function thirtyChanges(): FileChange[] {
  const changes: FileChange[] = [];
  for (let i = 0; i < 25; i++) changes.push(text(`src/file${i}.ts`, `export const v${i} = ${i * 10};\n`));
  changes.push(text('src/new/helper.ts', 'export const helper = 1;\n', 'added'));
  changes.push({ path: 'assets/logo.png', kind: 'added', data: PNG });
  changes.push({ path: 'old.txt', kind: 'deleted' });
  changes.push({ path: 'bin/run', kind: 'added', data: new TextEncoder().encode('#!/bin/sh\necho hi\n'), executable: true });
  changes.push({ path: 'bin/latest', kind: 'added', symlinkTarget: 'run' });
  return changes;
}

describe('a first push', () => {
  it('sends 30 changed files in 6 requests: a blob for the binary only, one tree, a commit, the branch, the pull request', async () => {
    const origin = await freshRepo(mock);
    mock.setLatency(30); // the target: <= 8 requests and <= 2 s at 30 ms a request
    const started = performance.now();
    const result = await pushToGitHub(pushOf(origin, thirtyChanges()), pushAccess(mock));
    const elapsed = performance.now() - started;
    mock.setLatency(0);
    console.log(`a 30-file pull request: ${result.requests} requests, ${Math.round(elapsed)} ms at 30 ms a request`);

    const repo = `/repos/octo/${origin.repo}`;
    expect(sequence(mock)).toEqual([
      `GET ${repo}/git/commits/${origin.sha}`,
      `POST ${repo}/git/blobs`,
      `POST ${repo}/git/trees`,
      `POST ${repo}/git/commits`,
      `POST ${repo}/git/refs`,
      `POST ${repo}/pulls`,
    ]);
    expect(result.requests).toBeLessThanOrEqual(8);
    expect(elapsed).toBeLessThan(2000);
    expect(result.pullRequest).toMatchObject({ number: 1, opened: true });
    expect(result.pullRequest.url).toMatch(new RegExp(`/octo/${origin.repo}/pull/1$`));
    const [pull] = mock.pulls('octo', origin.repo);
    expect(pull).toMatchObject({ head: 'conch/fix-the-bug', base: 'main', title: 'Fix the bug', body: 'Made with Conch.', state: 'open' });

    const pushed = mock.repo('octo', origin.repo);
    expect(pushed?.commits.get(result.commit)?.parents).toEqual([origin.sha]);
    const branch = await branchFiles(mock, 'octo', origin.repo, 'conch/fix-the-bug');
    const read = (path: string) => new TextDecoder().decode(branch.files.get(path));
    expect(read('src/file3.ts')).toBe('export const v3 = 30;\n');
    expect(read('src/file29.ts')).toBe('export const v29 = 29;\n');
    expect(read('src/new/helper.ts')).toBe('export const helper = 1;\n');
    expect(branch.files.get('assets/logo.png')).toEqual(PNG);
    expect(branch.files.has('old.txt')).toBe(false);
    expect([...branch.executables]).toEqual(['bin/run']);
    expect(branch.symlinks.get('bin/latest')).toBe('run');
  });

  it('puts the files of a session that imported one folder back into that folder', async () => {
    const origin = await freshRepo(mock);
    await pushToGitHub(pushOf({ ...origin, folder: 'src' }, [text('file2.ts', 'export const v2 = 2000;\n'), { path: 'file3.ts', kind: 'deleted' }]), pushAccess(mock));
    const branch = await branchFiles(mock, 'octo', origin.repo, 'conch/fix-the-bug');
    expect(new TextDecoder().decode(branch.files.get('src/file2.ts'))).toBe('export const v2 = 2000;\n');
    expect(branch.files.has('src/file3.ts')).toBe(false);
    expect(branch.files.has('file2.ts')).toBe(false);
    expect(new TextDecoder().decode(branch.files.get('README.md'))).toBe('# app\n');
  });

  it('names the branch after the session title', () => {
    expect(branchNameFor('Fix the login bug!')).toBe('conch/fix-the-login-bug');
    expect(branchNameFor('Café: réglages')).toBe('conch/cafe-reglages');
    expect(branchNameFor('???')).toBe('conch/changes');
    expect(branchNameFor('a'.repeat(80)).length).toBeLessThanOrEqual('conch/'.length + 48);
  });

  it('refuses a branch name someone else already pushed', async () => {
    const origin = await freshRepo(mock);
    const error = await failure(pushToGitHub(pushOf(origin, [text('README.md', '# new\n')], { branch: 'main' }), pushAccess(mock)));
    expect(error.kind).toBe('branch-exists');
    expect(error.message).toContain('choose another branch name');
  });
});

describe('push again', () => {
  it('adds a commit on top of the branch and updates the same pull request', async () => {
    const origin = await freshRepo(mock);
    const first = await pushToGitHub(pushOf(origin, [text('README.md', '# one\n')]), pushAccess(mock));
    mock.resetCounts();
    const changes = [text('README.md', '# one\n'), text('src/file1.ts', 'export const v1 = 100;\n')];
    const second = await pushToGitHub(pushOf(origin, changes, { title: 'Fix the bug, and v1' }), pushAccess(mock, { record: first.record }));

    const repo = `/repos/octo/${origin.repo}`;
    expect(sequence(mock)).toEqual([
      `GET ${repo}/git/ref/heads/conch/fix-the-bug`,
      `POST ${repo}/git/trees`,
      `POST ${repo}/git/commits`,
      `PATCH ${repo}/git/refs/heads/conch/fix-the-bug`,
      `GET ${repo}/pulls`,
      `PATCH ${repo}/pulls/1`,
    ]);
    expect(second.pullRequest).toMatchObject({ number: 1, opened: false, url: first.pullRequest.url });
    expect(mock.pulls('octo', origin.repo)).toHaveLength(1);
    expect(mock.pulls('octo', origin.repo)[0].title).toBe('Fix the bug, and v1');
    expect(mock.repo('octo', origin.repo)?.commits.get(second.commit)?.parents).toEqual([first.commit]);
    const branch = await branchFiles(mock, 'octo', origin.repo, 'conch/fix-the-bug');
    expect(new TextDecoder().decode(branch.files.get('src/file1.ts'))).toBe('export const v1 = 100;\n');
  });

  it('stops when someone else pushed to the branch, and goes on top of their commit only when confirmed', async () => {
    const origin = await freshRepo(mock);
    const first = await pushToGitHub(pushOf(origin, [text('README.md', '# one\n')]), pushAccess(mock));
    const theirs = mock.moveBranch('octo', origin.repo, 'conch/fix-the-bug');
    const again = pushOf(origin, [text('README.md', '# two\n')]);

    const refused = await failure(pushToGitHub(again, pushAccess(mock, { record: first.record })));
    expect(refused.kind).toBe('branch-moved');
    expect(refused.message).toContain('Confirm');
    expect(mock.repo('octo', origin.repo)?.branches.get('conch/fix-the-bug')).toBe(theirs);
    expect(mock.requests.some((r) => r.method === 'PATCH' && r.path.includes('/git/refs/'))).toBe(false);

    const confirmed = await pushToGitHub(again, pushAccess(mock, { record: first.record, overwrite: true }));
    expect(mock.repo('octo', origin.repo)?.commits.get(confirmed.commit)?.parents).toEqual([theirs]);
    expect(mock.requests.filter((r) => r.method === 'PATCH' && r.path.includes('/git/refs/')).map((r) => r.status)).toEqual([200]);
    expect(mock.pulls('octo', origin.repo)).toHaveLength(1);
  });
});

describe('resume after a failure', () => {
  it('continues where it stopped: the blob and tree are reused, and the result is the same', async () => {
    const origin = await freshRepo(mock);
    const records: PushRecord[] = [];
    const changes = thirtyChanges();
    mock.failRequest(4); // the commit
    const failed = await failure(pushToGitHub(pushOf(origin, changes), pushAccess(mock, { onRecord: (r) => records.push(r) })));
    expect(failed.kind).toBe('unexpected');
    expect(failed.message).toContain('502');
    const stored = records.at(-1) as PushRecord;
    expect(stored.blobs).toHaveLength(1);
    expect(stored.tree?.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(stored.commit).toBeUndefined();
    expect(mock.repo('octo', origin.repo)?.branches.has('conch/fix-the-bug')).toBe(false);

    mock.resetCounts();
    const retried = await pushToGitHub(pushOf(origin, changes), pushAccess(mock, { record: stored }));
    const repo = `/repos/octo/${origin.repo}`;
    expect(sequence(mock)).toEqual([`POST ${repo}/git/commits`, `POST ${repo}/git/refs`, `POST ${repo}/pulls`]);

    const clean = await freshRepo(mock);
    const direct = await pushToGitHub(pushOf(clean, changes), pushAccess(mock));
    expect(mock.repo('octo', origin.repo)?.commits.get(retried.commit)?.treeSha).toBe(mock.repo('octo', clean.repo)?.commits.get(direct.commit)?.treeSha);
    expect(retried.pullRequest.number).toBe(1);
  });

  it('after the branch was made, a retry only opens the pull request', async () => {
    const origin = await freshRepo(mock);
    let stored: PushRecord | undefined;
    mock.failRequest(5); // GET commit, tree, commit, ref: the fifth is the pull request
    await failure(pushToGitHub(pushOf(origin, [text('README.md', '# x\n')]), pushAccess(mock, { onRecord: (r) => (stored = r) })));
    expect(stored?.pushed).toBeDefined();
    mock.resetCounts();
    const retried = await pushToGitHub(pushOf(origin, [text('README.md', '# x\n')]), pushAccess(mock, { record: stored }));
    const repo = `/repos/octo/${origin.repo}`;
    expect(sequence(mock)).toEqual([`GET ${repo}/git/ref/heads/conch/fix-the-bug`, `GET ${repo}/pulls`, `POST ${repo}/pulls`]);
    expect(retried.commit).toBe(stored?.pushed);
    expect(mock.pulls('octo', origin.repo)).toHaveLength(1);
  });
});
