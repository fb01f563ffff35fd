import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../../e2e/mock-github/server';
import { branchFiles } from '../../../remote/github/testing/push-fixture';
import { defaultSettings, type Settings } from '../../settings/settings';
import { HostImport } from '../host-import/host-import.svelte';
import { startTestLibrary } from '../testing/test-library';
import { ShellPush } from './shell-push.svelte';

// `git push` typed in the sandbox (by the agent or the person) reaches GitHub only after the person says yes, in
// every approval mode, through the same push as "Open pull request".

const dec = new TextDecoder();
const ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
let mock: MockGitHub;
let counter = 0;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  mock = await startMockGitHub();
});
afterAll(() => mock.close());
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** A session that imported a fresh octo/shell-N from the mock, its runtime's git push going through a ShellPush. */
async function importedSession(approvalMode: Settings['approvalMode'] = 'auto', options: { importIt?: boolean } = {}) {
  const name = `shell-${++counter}`;
  await mock.addRepo({ owner: 'octo', name, branches: { main: [{ path: 'README.md', data: '# app\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }] } });
  const settings: Settings = { ...defaultSettings(), approvalMode, githubApiUrl: mock.apiUrl, githubRawUrl: mock.rawUrl, githubToken: 'ghp_mock', provider: 'anthropic', apiKey: 'sk-test' };
  let shell: ShellPush | undefined;
  const { library, runtime, store } = await startTestLibrary(settings, `shell-push-${counter}-`, cleanups, 'Done.', (request, signal) => shell!.host(request, signal));
  shell = new ShellPush({ library: () => library, settings: () => settings, fetch });
  if (options.importIt !== false) {
    const hostImport = new HostImport({ settings: () => settings, fetch });
    hostImport.url = `octo/${name}`;
    await hostImport.start(library);
    expect(hostImport.phase).toBe('done');
  }
  library.current!.title = 'Fix the greeting';
  return { name, runtime, library, store, shell };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

const writes = () => mock.requests.filter((r) => r.kind === 'api' && r.method !== 'GET').length;

describe('git push from the shell', () => {
  for (const mode of ['auto', 'ask', 'read-only'] as const) {
    it(`asks the person first in ${mode} mode, then pushes the commit and opens the pull request`, async () => {
      const { name, runtime, shell } = await importedSession(mode);
      const before = writes();
      const pushing = runtime.exec("printf 'console.log(2);\\n' > src/app.js && git add -A && git commit -q -m 'Print two' && git push", { env: ENV });
      await until(() => shell.pending.length === 1);
      const question = shell.pending[0]!.question;
      expect(question).toMatchObject({ repo: `github.com/octo/${name}`, branch: 'conch/fix-the-greeting', noun: 'pull request', message: 'Print two', files: [{ path: 'src/app.js', kind: 'modified' }] });
      expect(writes()).toBe(before); // nothing sent while the person has not answered
      shell.answer(question.id, true);
      const result = await pushing;
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain(`HEAD -> conch/fix-the-greeting\nPull request #1 opened: `);
      expect(mock.pulls('octo', name)).toMatchObject([{ number: 1, head: 'conch/fix-the-greeting', base: 'main', title: 'Print two' }]);
      const pushed = await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting');
      expect(dec.decode(pushed.files.get('src/app.js'))).toBe('console.log(2);\n');
    });
  }

  it('a second push adds a commit to the same branch and keeps the pull request and its title', async () => {
    const { name, runtime, shell, store, library } = await importedSession();
    const push = async (command: string) => {
      const pushing = runtime.exec(command, { env: ENV });
      await until(() => shell.pending.length === 1);
      shell.answer(shell.pending[0]!.question.id, true);
      return pushing;
    };
    await push("echo one > one.txt && git add one.txt && git commit -q -m 'Add one' && git push");
    const again = await push("echo two > two.txt && git add two.txt && git commit -q -m 'Add two' && git push");
    expect(again.output).toContain('Pull request #1 updated');
    expect(mock.pulls('octo', name)).toMatchObject([{ number: 1, title: 'Add one' }]);
    const pushed = await branchFiles(mock, 'octo', name, 'conch/fix-the-greeting');
    expect([...pushed.files.keys()].sort()).toEqual(['README.md', 'one.txt', 'src/app.js', 'two.txt']);
    expect((await store.getSession(library.current!.id))?.pushRecord).toMatchObject({ record: { branch: 'conch/fix-the-greeting', pullRequest: { number: 1 } } });
  });

  it('sends nothing when the person declines, and tells the shell why', async () => {
    const { name, runtime, shell } = await importedSession();
    const before = writes();
    const pushing = runtime.exec("echo x >> README.md && git commit -q -am 'x' && git push", { env: ENV });
    await until(() => shell.pending.length === 1);
    shell.answer(shell.pending[0]!.question.id, false);
    const result = await pushing;
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain('the person declined the push; nothing was sent.');
    expect(writes()).toBe(before);
    expect(mock.pulls('octo', name)).toEqual([]);
  });

  it('refuses without asking: the imported branch itself, another remote URL, a session not imported from a host', async () => {
    const { runtime, shell } = await importedSession();
    await runtime.exec("echo x >> README.md && git commit -q -am 'x'", { env: ENV });
    const direct = await runtime.exec('git push origin HEAD:refs/heads/main', { env: ENV });
    expect(direct.exitCode).toBe(1);
    expect(direct.output).toContain('main is the branch this session was imported from: push to a branch of its own');
    const moved = await runtime.exec('git remote set-url origin https://github.com/evil/copy && git push', { env: ENV });
    expect(moved.exitCode).toBe(1);
    expect(moved.output).toContain('Conch pushes only there');

    const plain = await importedSession('auto', { importIt: false });
    await plain.runtime.exec('git init -q && git remote add origin https://github.com/octo/x && echo a > a && git add a && git commit -q -m a', { env: ENV });
    const none = await plain.runtime.exec('git push', { env: ENV });
    expect(none.exitCode).not.toBe(0);
    expect(none.output).toContain('does not start at the imported commit');
    expect(shell.pending.length + plain.shell.pending.length).toBe(0);
  });
});
