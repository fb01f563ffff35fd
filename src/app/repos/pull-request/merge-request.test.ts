import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockGitLab, type MockGitLab } from '../../../../e2e/mock-gitlab/server';
import { defaultSettings, type Settings } from '../../settings/settings';
import { HostImport } from '../host-import/host-import.svelte';
import { PullRequestForm } from './pull-request.svelte';
import { startTestLibrary } from '../testing/test-library';

let gitlab: MockGitLab;
let counter = 0;
const cleanups: (() => void)[] = [];
const WRITER = 'glpat-writer';

beforeAll(async () => {
  gitlab = await startMockGitLab({ tokens: { 'glpat-mock': { username: 'reader', scopes: ['read_api'] }, [WRITER]: { username: 'writer', scopes: ['api'] } } });
});
afterAll(() => gitlab.close());
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** A session that imported a fresh team/tools/app-N from the mock, with the form over it. */
async function importedSession(token: string) {
  const name = `app-${++counter}`;
  gitlab.addProject({ namespace: 'team/tools', name, branches: { main: [{ path: 'README.md', data: '# app\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }] } });
  const settings: Settings = { ...defaultSettings(), gitlabUrl: gitlab.baseUrl, gitlabToken: token };
  const { library, runtime, store, workspace } = await startTestLibrary(settings, `merge-request-${counter}-`, cleanups);
  const hostImport = new HostImport({ settings: () => settings, fetch });
  hostImport.url = `${gitlab.baseUrl}/team/tools/${name}`;
  await hostImport.start(library);
  expect(hostImport.error).toBe('');
  library.current!.title = 'Fix the greeting';
  const form = new PullRequestForm({ library: () => library, settings: () => settings, readFile: (path) => workspace.readFile(path), fetch });
  return { name, runtime, form };
}

function commitsOnBranch(fullPath: string, branch: string): number {
  const project = gitlab.project(fullPath)!;
  const base = project.refs.get('main');
  let count = 0;
  for (let sha = project.refs.get(branch); sha && sha !== base; sha = project.commits.get(sha)?.parents?.at(0)) count++;
  return count;
}

describe('PullRequestForm on a GitLab import', () => {
  it('opens a merge request, and a push again adds a commit and updates the same one', async () => {
    const { name, runtime, form } = await importedSession(WRITER);
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    expect(form.label).toBe('Open merge request');
    await form.submit();
    expect(form.error).toBe('');
    expect(form.result).toMatchObject({ number: 1, opened: true, url: `${gitlab.baseUrl}/team/tools/${name}/-/merge_requests/1` });
    expect(gitlab.mergeRequests(`team/tools/${name}`)).toMatchObject([{ iid: 1, source: 'conch/fix-the-greeting', target: 'main', title: 'Fix the greeting' }]);

    await runtime.writeFile('src/app.js', 'console.log(3);\n');
    form.title = 'Fix the greeting, twice';
    await form.submit();
    expect(form.error).toBe('');
    expect(form.result).toMatchObject({ number: 1, opened: false });
    expect(gitlab.mergeRequests(`team/tools/${name}`)).toMatchObject([{ iid: 1, title: 'Fix the greeting, twice' }]);
    expect(commitsOnBranch(`team/tools/${name}`, 'conch/fix-the-greeting')).toBe(2);
    const head = gitlab.project(`team/tools/${name}`)!.commits.get(gitlab.project(`team/tools/${name}`)!.refs.get('conch/fix-the-greeting')!)!;
    expect(head.files.find((f) => f.path === 'src/app.js')).toMatchObject({ data: 'console.log(3);\n' });
  });

  it('a token without the api scope is told what it needs, and nothing is pushed', async () => {
    const { name, runtime, form } = await importedSession('glpat-mock');
    await runtime.writeFile('src/app.js', 'console.log(2);\n');
    await form.show();
    await form.submit();
    expect(form.error).toMatch(/cannot push to team\/tools\/app-\d+: it needs the api scope/);
    expect(form.forkOffered).toBe(false);
    expect(gitlab.mergeRequests(`team/tools/${name}`)).toEqual([]);
  });
});
