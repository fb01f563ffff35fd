import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockGitHub, type MockGitHub } from '../../../../e2e/mock-github/server';
import { startMockGitLab, type MockGitLab } from '../../../../e2e/mock-gitlab/server';
import type { Runtime } from '../../../runtime/types';
import { defaultSettings, settingsSecrets, type Settings } from '../../settings/settings';
import { buildExport } from '../../library/sharing';
import { unzipSync } from 'fflate';
import { HostImport } from './host-import.svelte';
import { repoLinkFor, repoLinkParam } from './link';
import { startTestLibrary } from '../testing/test-library';

const dec = new TextDecoder();
let mock: MockGitHub;
let gitlab: MockGitLab;
let counter = 0;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  mock = await startMockGitHub({
    repos: [
      {
        owner: 'octo',
        name: 'hello',
        branches: {
          main: [
            { path: 'README.md', data: '# hello\n' },
            { path: 'src/app.js', data: 'console.log(1);\n' },
            { path: 'bin/run', data: '#!/bin/sh\n', executable: true },
            { path: 'bin/latest', symlink: 'run' },
            { path: 'vendor/lib', submodule: 'c'.repeat(40) },
          ],
        },
      },
    ],
  });
});
beforeAll(async () => {
  gitlab = await startMockGitLab({
    projects: [
      { namespace: 'team/tools', name: 'lint', private: true, branches: { main: [{ path: 'README.md', data: '# lint\n' }, { path: 'src/rules.js', data: 'export default [];\n' }], 'release/2': [{ path: 'src/rules.js', data: 'export default [1];\n' }, { path: 'docs/a.md', data: 'a\n' }] } },
    ],
  });
});
afterAll(() => mock.close());
afterAll(() => gitlab.close());
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

async function setup() {
  const settings: Settings = { ...defaultSettings(), githubApiUrl: mock.apiUrl, githubRawUrl: mock.rawUrl, gitlabUrl: gitlab.baseUrl };
  const { library, runtime, store } = await startTestLibrary(settings, `host-import-${counter++}-`, cleanups);
  await runtime.writeFile('mine.txt', 'the session as it was\n');
  const hostImport = new HostImport({ settings: () => settings, fetch });
  return { library, runtime, store, hostImport, settings };
}

const names = async (runtime: Runtime, folder = '') => (await runtime.readdir(folder ? `${runtime.workdir}/${folder}` : runtime.workdir)).map((e) => e.name).sort();

describe('HostImport', () => {
  it('imports a public GitHub repo by address: workspace, baseline commit, origin, and what was left out', async () => {
    const { library, runtime, store, hostImport } = await setup();
    hostImport.url = 'https://github.com/octo/hello';
    await hostImport.start(library);
    expect(hostImport.error).toBe('');
    expect(hostImport.phase).toBe('done');
    expect(await names(runtime)).toEqual(['README.md', 'bin', 'src']);
    expect(dec.decode(await runtime.readFile('src/app.js'))).toBe('console.log(1);\n');
    expect(hostImport.result?.leftOut).toEqual(['bin/latest: a symbolic link, not imported', 'vendor/lib: a submodule, not imported (its own repository)']);

    const record = await store.getSession(library.current!.id);
    expect(record?.origin).toMatchObject({ host: 'github', web: 'https://github.com', owner: 'octo', repo: 'hello', ref: 'main' });
    expect(record?.origin?.sha).toMatch(/^[0-9a-f]{40}$/);
    const sha7 = record!.origin!.sha.slice(0, 7);
    expect((await runtime.exec('git log --format=%s')).output).toBe(`Imported octo/hello at ${sha7}\n`);
    expect((await runtime.exec('git remote -v')).output).toBe('origin\thttps://github.com/octo/hello (fetch)\norigin\thttps://github.com/octo/hello (push)\n');
    expect((await runtime.exec('git status --short')).output).toBe('');
    expect(repoLinkFor(record!.origin!, 'https://conch.example/app/?x=1')).toBe('https://conch.example/app/?repo=github.com/octo/hello@main');
  });

  it('imports a GitLab project under subgroups at a slashed branch, with the token for a private one', async () => {
    const { library, runtime, store, hostImport, settings } = await setup();
    hostImport.url = `${gitlab.baseUrl}/team/tools/lint/-/tree/release/2`;
    await hostImport.start(library);
    expect(hostImport.phase).toBe('failed');
    expect(hostImport.error).toMatch(/team\/tools\/lint was not found, or it is private: add a GitLab token/);
    expect(await names(runtime)).toEqual(['mine.txt']);

    settings.gitlabToken = 'glpat-mock';
    await hostImport.start(library);
    expect(hostImport.error).toBe('');
    expect(hostImport.phase).toBe('done');
    expect(await names(runtime)).toEqual(['docs', 'src']);
    expect(dec.decode(await runtime.readFile('src/rules.js'))).toBe('export default [1];\n');
    const record = await store.getSession(library.current!.id);
    expect(record?.origin).toMatchObject({ host: 'gitlab', web: gitlab.baseUrl, owner: 'team/tools', repo: 'lint', ref: 'release/2' });
    expect((await runtime.exec('git log --format=%s')).output).toBe(`Imported team/tools/lint at ${record!.origin!.sha.slice(0, 7)}\n`);
  });

  it('leaves the session as it was when the repo is not there, and says what to do', async () => {
    const { library, runtime, store, hostImport } = await setup();
    hostImport.url = 'octo/missing';
    await hostImport.start(library);
    expect(hostImport.phase).toBe('failed');
    expect(hostImport.error).toMatch(/octo\/missing was not found, or it is private: add a token with Contents: read/);
    expect(await names(runtime)).toEqual(['mine.txt']);
    expect((await store.getSession(library.current!.id))?.origin).toBeUndefined();
  });

  it('says when to retry once the rate limit is used up, fetching nothing more', async () => {
    const { library, runtime, hostImport } = await setup();
    mock.setRateRemaining(0);
    try {
      hostImport.url = 'octo/hello';
      await hostImport.start(library);
    } finally {
      mock.setRateRemaining(60);
    }
    expect(hostImport.phase).toBe('failed');
    expect(hostImport.error).toMatch(/rate limit is used up until \d\d:\d\d \(local time\)\. Add a token in Settings/);
    expect(await names(runtime)).toEqual(['mine.txt']);
  });

  it('cancelled while fetching: nothing of the repo reaches the session', async () => {
    const { library, runtime, hostImport } = await setup();
    mock.setLatency(150);
    try {
      hostImport.url = 'octo/hello';
      const running = hostImport.start(library);
      await new Promise<void>((resolve) => {
        const check = () => (hostImport.phase === 'listing' ? resolve() : setTimeout(check, 5));
        check();
      });
      hostImport.cancel();
      await running;
    } finally {
      mock.setLatency(0);
    }
    expect(hostImport.phase).toBe('cancelled');
    expect(await names(runtime)).toEqual(['mine.txt']);
  });

  it('a ?repo= link fills the field and waits for confirmation: no request before it', async () => {
    const { library, runtime, hostImport, settings } = await setup();
    settings.githubToken = 'ghp_mock';
    mock.resetCounts();
    await hostImport.openLink(repoLinkParam('?repo=github.com/octo/hello@main')!);
    expect(hostImport.url).toBe('github.com/octo/hello@main');
    expect(hostImport.link).toEqual({ host: 'GitHub', repo: 'octo/hello', ref: 'main', withToken: true });
    expect(mock.counts).toEqual({ api: 0, graphql: 0, raw: 0 });
    await hostImport.confirmLink(library);
    expect(hostImport.phase).toBe('done');
    expect(mock.counts.api).toBeGreaterThan(0);
    expect(await names(runtime, 'src')).toEqual(['app.js']);
  });

  it('keeps the host tokens out of the session file and the HTML export, even when a message holds one', async () => {
    const { library, hostImport, settings } = await setup();
    settings.githubToken = 'ghp_mock';
    settings.gitlabToken = 'glpat-my-own-gitlab-token-0001';
    hostImport.url = 'octo/hello';
    await hostImport.start(library);
    expect(hostImport.phase).toBe('done');
    library.current!.send(`push with ${settings.githubToken} or ${settings.gitlabToken}`);
    await library.current!.idle();
    await library.flush();
    const prepared = await library.transfer.prepareExport(settingsSecrets(settings));
    const session = await buildExport(prepared, [], 'session');
    const everything = Object.values(unzipSync(session.data)).map((bytes) => dec.decode(bytes)).join('\n');
    const html = dec.decode((await buildExport(prepared, [], 'html')).data);
    for (const token of [settings.githubToken, settings.gitlabToken]) {
      expect(everything).not.toContain(token);
      expect(html).not.toContain(token);
    }
  });
});
