import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../../e2e/mock-github/server';
import { createScriptedStreamFn } from '../../../ai/providers/scripted';
import type { StreamFn } from '../../../ai/types';
import { defaultSettings, type Settings } from '../../settings/settings';
import { branchFiles } from '../../../remote/github/testing/push-fixture';
import { HostImport } from '../host-import/host-import.svelte';
import { PullRequestForm } from './pull-request.svelte';
import { startTestLibrary } from '../testing/test-library';

const dec = new TextDecoder();
let mock: MockGitHub;
let counter = 0;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  mock = await startMockGitHub({ grants: { ghp_reader: { login: 'reader', contents: 'read', pullRequests: 'write' } }, forkAnswersAfter: 1 });
});
afterAll(() => mock.close());
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** A session that imported a fresh octo/app-N from the mock, with a pull request form over it. */
async function importedSession(options: { token?: string; streamFn?: StreamFn; folder?: string } = {}) {
  const name = `app-${++counter}`;
  await mock.addRepo({ owner: 'octo', name, branches: { main: [{ path: 'README.md', data: '# app\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }, { path: 'old.txt', data: 'old\n' }, { path: 'bin/run', data: '#!/bin/sh\n', executable: true }] } });
  const settings: Settings = { ...defaultSettings(), githubApiUrl: mock.apiUrl, githubRawUrl: mock.rawUrl, githubToken: options.token ?? 'ghp_mock', provider: 'anthropic', apiKey: 'sk-test' };
  const { library, runtime, store, workspace } = await startTestLibrary(settings, `pull-request-${counter}-`, cleanups, 'Done.');
  const hostImport = new HostImport({ settings: () => settings, fetch });
  hostImport.url = options.folder ? `https://github.com/octo/${name}/tree/main/${options.folder}` : `octo/${name}`;
  await hostImport.start(library);
  expect(hostImport.phase).toBe('done');
  library.current!.title = 'Fix the greeting';
  const form = new PullRequestForm({ library: () => library, settings: () => settings, readFile: (path) => workspace.readFile(path), fetch, streamFn: options.streamFn, forkWaitMs: 5 });
  return { name, runtime, library, store, form, settings };
}

/** Commits on `branch` of octo/`name` (or its fork) since the imported main. */
function commitsOnBranch(owner: string, name: string, branch: string): number {
  const repo = mock.repo(owner, name)!;
  const base = mock.repo('octo', name)!.branches.get('main');
  let count = 0;
  for (let sha = repo.branches.get(branch); sha && sha !== base; sha = repo.commits.get(sha)?.parents?.at(0)) count++;
  return count;
}

const apiRequests = () => mock.requests.filter((r) => r.kind === 'api').length;

describe('PullRequestForm', () => {
  it('offers a pull request for a GitHub import, with the branch and message made from the session', async () => {
    const { runtime, form } = await importedSession();
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await runtime.rm('old.txt');
    await form.show();
    expect(form.label).toBe('Open pull request');
    expect(form.branch).toBe('conch/fix-the-greeting');
    expect(form.title).toBe('Fix the greeting');
    expect(form.message).toBe('Fix the greeting\n\n- deleted old.txt\n- modified src/app.js');
  });

  it('opens a pull request, then a push again adds a commit to the same branch and updates the same pull request', async () => {
    const { name, runtime, library, store, form } = await importedSession();
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await runtime.writeFile('notes.md', 'new\n');
    await form.show();
    await form.submit();
    expect(form.error).toBe('');
    expect(form.result).toMatchObject({ number: 1, opened: true });
    expect(form.result?.url).toMatch(new RegExp(`/octo/${name}/pull/1$`));
    expect(mock.pulls('octo', name)).toMatchObject([{ number: 1, head: 'conch/fix-the-greeting', base: 'main', title: 'Fix the greeting' }]);
    const stored = (await store.getSession(library.current!.id))?.pushRecord;
    expect(stored).toMatchObject({ host: 'github', record: { branch: 'conch/fix-the-greeting', pullRequest: { number: 1 } } });
    expect(JSON.stringify(stored)).not.toContain('ghp_mock');

    // A reload: a new form reads the record back from the session.
    const again = new PullRequestForm({ library: () => library, settings: () => ({ ...defaultSettings(), githubApiUrl: mock.apiUrl, githubToken: 'ghp_mock' }), readFile: (path) => runtime.readFile(path), fetch });
    await runtime.writeFile('src/app.js', 'console.log(3);\n');
    await again.show();
    again.title = 'Fix the greeting, twice';
    await again.submit();
    expect(again.error).toBe('');
    expect(again.result).toMatchObject({ number: 1, opened: false });
    expect(mock.pulls('octo', name)).toHaveLength(1);
    expect(mock.pulls('octo', name)[0].title).toBe('Fix the greeting, twice');
    expect(commitsOnBranch('octo', name, 'conch/fix-the-greeting')).toBe(2);
  });

  it('a token that cannot push gets the fork offer; forking pushes into the fork and opens the pull request from it', async () => {
    const { name, runtime, form, library, store } = await importedSession({ token: 'ghp_reader' });
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    await form.submit();
    expect(form.forkOffered).toBe(true);
    expect(form.error).toMatch(/cannot push to octo\/.*Fork/);
    expect(mock.pulls('octo', name)).toEqual([]);

    await form.forkAndSubmit();
    expect(form.error).toBe('');
    expect(form.forkOffered).toBe(false);
    expect(mock.pulls('octo', name)).toMatchObject([{ number: 1, headOwner: 'reader', head: 'conch/fix-the-greeting', base: 'main' }]);
    expect(commitsOnBranch('reader', name, 'conch/fix-the-greeting')).toBe(1);
    expect((await store.getSession(library.current!.id))?.pushRecord?.record).toMatchObject({ target: { owner: 'reader', repo: name } });

    // Push again goes to the fork, updating the same pull request.
    await runtime.writeFile('src/app.js', 'console.log(3);\n');
    await form.submit();
    expect(form.result).toMatchObject({ number: 1, opened: false });
    expect(commitsOnBranch('reader', name, 'conch/fix-the-greeting')).toBe(2);
  });

  it('a failure leaves the workspace as it was, and the retry continues where it stopped, with fewer requests', async () => {
    const { name, runtime, form } = await importedSession();
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    mock.resetCounts();
    mock.failRequest(6); // after the modes (the commit, two folders), the tree and the commit are made; the branch fails
    await form.submit();
    const failedRequests = apiRequests();
    expect(form.error).toMatch(/GitHub/);
    expect(form.result).toBeNull();
    expect(mock.pulls('octo', name)).toEqual([]);
    expect(dec.decode(await runtime.readFile('src/app.js'))).toBe('console.log(2);\n');
    expect((await runtime.exec('git status --short')).output).toBe(' M src/app.js\n');

    mock.resetCounts();
    await form.submit();
    expect(form.error).toBe('');
    expect(form.result).toMatchObject({ number: 1, opened: true });
    expect(apiRequests()).toBeLessThan(failedRequests);
    expect(mock.requests.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([`POST /repos/octo/${name}/git/refs`, `POST /repos/octo/${name}/pulls`]);
  });

  it('sends 30 changed files in at most 8 requests, the file modes included', async () => {
    const { name, runtime, form } = await importedSession();
    for (let i = 0; i < 26; i++) await runtime.writeFile(`src/new${i}.js`, `export const n = ${i};\n`);
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await runtime.writeFile('README.md', '# app, changed\n');
    await runtime.writeFile('bin/run', '#!/bin/sh\necho 2\n');
    await runtime.rm('old.txt');
    await form.show();
    mock.resetCounts();
    mock.setLatency(30);
    const started = performance.now();
    await form.submit();
    const elapsed = performance.now() - started;
    mock.setLatency(0);
    expect(form.error).toBe('');
    console.log(`a 30-file pull request from the page: ${apiRequests()} requests, ${Math.round(elapsed)} ms at 30 ms a request`);
    expect(apiRequests()).toBeLessThanOrEqual(8);
    expect(elapsed).toBeLessThan(2000);
    const branch = await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting');
    expect(branch.files.size).toBe(3 + 26);
    expect([...branch.executables]).toEqual(['bin/run']);
  });

  it('keeps the mode of a modified executable, asking GitHub for it once', async () => {
    const { name, runtime, form } = await importedSession();
    await runtime.writeFile('bin/run', '#!/bin/sh\necho 2\n');
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    await form.submit();
    expect(form.error).toBe('');
    const branch = await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting');
    expect([...branch.executables]).toEqual(['bin/run']);
    expect(dec.decode(branch.files.get('bin/run'))).toBe('#!/bin/sh\necho 2\n');

    mock.resetCounts();
    await runtime.writeFile('bin/run', '#!/bin/sh\necho 3\n');
    await form.submit();
    expect(mock.requests.filter((r) => r.path.includes('/git/trees/'))).toEqual([]);
    expect([...(await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting')).executables]).toEqual(['bin/run']);
  });

  it('puts the changes of a folder import back into that folder', async () => {
    const { name, runtime, form } = await importedSession({ folder: 'src' });
    await runtime.writeFile('app.js', 'console.log(2);\n');
    await runtime.writeFile('extra.js', 'export {};\n');
    await form.show();
    await form.submit();
    expect(form.error).toBe('');
    const branch = await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting');
    expect([...branch.files.keys()].sort()).toEqual(['README.md', 'bin/run', 'old.txt', 'src/app.js', 'src/extra.js']);
    expect(dec.decode(branch.files.get('src/app.js'))).toBe('console.log(2);\n');
  });

  it('asks before pushing on top of a branch someone else moved', async () => {
    const { name, runtime, form } = await importedSession();
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    await form.submit();
    mock.moveBranch('octo', name, 'conch/fix-the-greeting');
    await runtime.writeFile('src/app.js', 'console.log(3);\n');
    await form.submit();
    expect(form.branchMoved).toBe(true);
    expect(form.error).toMatch(/has commits this session did not push/);
    expect(commitsOnBranch('octo', name, 'conch/fix-the-greeting')).toBe(2);

    await form.submit({ overwrite: true });
    expect(form.error).toBe('');
    expect(form.branchMoved).toBe(false);
    expect(commitsOnBranch('octo', name, 'conch/fix-the-greeting')).toBe(3);
  });

  it('"Draft with the model" fills the title and body with one request', async () => {
    const requests: string[] = [];
    const scripted = createScriptedStreamFn([{ content: 'Greet with 2\n\nThe greeting now logs 2 instead of 1.' }]);
    const streamFn: StreamFn = (model, request, options) => {
      requests.push(JSON.stringify(request.messages));
      return scripted(model, request, options);
    };
    const { runtime, form, library } = await importedSession({ streamFn });
    library.current!.send('Make the greeting log 2');
    await library.current!.idle();
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    await form.draft();
    expect(form.error).toBe('');
    expect(form.title).toBe('Greet with 2');
    expect(form.body).toBe('The greeting now logs 2 instead of 1.');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toContain('Make the greeting log 2');
    expect(requests[0]).toContain('modified src/app.js');
  });
});
