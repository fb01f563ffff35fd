import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startMockGitLab, type MockGitLab } from '../../../e2e/mock-gitlab/server';
import { gitlabApiUrl } from './api';
import { BadTokenError } from './errors';
import { importGitLabProject } from './import-project';
import { describeGitLabTokenTest, testGitLabToken, testGitLabTokenForSettings } from './token-check';
import { at, failure, mockAccess, TOKEN } from './testing/mock-access';

let mock: MockGitLab;
beforeAll(async () => {
  mock = await startMockGitLab({
    tokens: { [TOKEN]: { username: 'mock-user', scopes: ['read_api', 'read_repository'] }, 'glpat-narrow': { username: 'bot', scopes: ['read_user'] } },
    projects: [{ namespace: 'group', name: 'app', branches: { main: [{ path: 'a.txt', data: 'a\n' }] } }],
  });
});
afterAll(() => mock.close());
beforeEach(() => mock.resetCounts());

it('puts the API under /api/v4 of the host settings name, with or without a trailing slash', () => {
  expect(gitlabApiUrl('https://gitlab.com')).toBe('https://gitlab.com/api/v4');
  expect(gitlabApiUrl('https://git.example.org/')).toBe('https://git.example.org/api/v4');
  expect(gitlabApiUrl('https://git.example.org/gitlab/api/v4')).toBe('https://git.example.org/gitlab/api/v4');
});

it("tests a token: its login and scopes, sent as PRIVATE-TOKEN", async () => {
  expect(await testGitLabToken({ fetch, baseUrl: mock.baseUrl, token: TOKEN })).toEqual({ username: 'mock-user', scopes: ['read_api', 'read_repository'] });
  expect(await testGitLabToken({ fetch, baseUrl: mock.baseUrl, token: 'glpat-narrow' })).toEqual({ username: 'bot', scopes: ['read_user'] });
  expect(mock.requests.map((r) => [r.path, r.token])).toEqual([
    ['/api/v4/user', TOKEN], ['/api/v4/personal_access_tokens/self', TOKEN],
    ['/api/v4/user', 'glpat-narrow'], ['/api/v4/personal_access_tokens/self', 'glpat-narrow'],
  ]);
});

it("Settings' Test token says who, which scopes, and that merge requests need the api scope; a wrong token or host is said, not thrown", async () => {
  const narrow = await testGitLabTokenForSettings({ fetch, baseUrl: mock.baseUrl, token: 'glpat-narrow' });
  expect(describeGitLabTokenTest(narrow)).toBe('Signed in as bot; scopes: read_user. Opening merge requests needs the api scope.');
  const wrong = await testGitLabTokenForSettings({ fetch, baseUrl: mock.baseUrl, token: 'glpat-wrong' });
  expect(wrong.kind).toBe('rejected');
  const nowhere = await testGitLabTokenForSettings({ fetch, baseUrl: 'http://127.0.0.1:9', token: TOKEN });
  expect(nowhere.kind).toBe('offline');
  expect(describeGitLabTokenTest(nowhere)).toMatch(/could not be reached/);
});

it('says a refused token is refused, in the token test and in an import', async () => {
  const tested = await failure(testGitLabToken({ fetch, baseUrl: mock.baseUrl, token: 'glpat-wrong' }));
  expect(tested).toBeInstanceOf(BadTokenError);
  expect(tested.message).toBe('GitLab refused the token in Settings (401 Unauthorized): check it there, or remove it to import a public project.');
  const imported = await failure(importGitLabProject(at(mock, 'group/app'), mockAccess(mock, { token: 'glpat-wrong' })));
  expect(imported).toBeInstanceOf(BadTokenError);
  expect(mock.counts.archive).toBe(0);
});
