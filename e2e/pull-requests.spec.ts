// Sending a session's work back as a pull request, in the built app against the loopback GitHub: import a public
// repo by address, let the agent edit a file, open a pull request (the title and body drafted by the model), edit
// again and push again to the same pull request; a token that cannot push is offered a fork; and the same for a
// GitLab project's merge request.
import type { Page } from '@playwright/test';
import { startMockGitHub, type MockGitHub } from './mock-github/server';
import { startMockGitLab, type MockGitLab } from './mock-gitlab/server';
import type { MockProvider } from './mock-provider/server';
import { ask, callTurn, expect, openAndConfigure, snapshot, test, textTurn } from './fixtures';

let github: MockGitHub;
let gitlab: MockGitLab;
let serial = 0;
test.beforeAll(async () => {
  github = await startMockGitHub({ grants: { ghp_reader: { login: 'reader', contents: 'read', pullRequests: 'write' } }, forkAnswersAfter: 1 });
  gitlab = await startMockGitLab({ tokens: { 'glpat-writer': { username: 'writer', scopes: ['api'] } } });
});
test.afterAll(async () => {
  await github.close();
  await gitlab.close();
});

const narrow = (page: Page) => (page.viewportSize()?.width ?? 1280) < 700;

/** A fresh octo/site-N on the mock, so each test pushes to a repository of its own. */
async function freshRepo(): Promise<string> {
  const name = `site-${++serial}`;
  await github.addRepo({ owner: 'octo', name, branches: { main: [{ path: 'README.md', data: '# site\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }] } });
  return name;
}

/** The app with the mock model, both hosts pointed at their mocks (`token` for GitHub), and `address` imported. */
async function importedSession(page: Page, mock: MockProvider, address: string, token: string) {
  await openAndConfigure(page, mock);
  await page.getByTestId('settings-open').click();
  await page.getByTestId('github-api-url').fill(github.apiUrl);
  await page.getByTestId('github-raw-url').fill(github.rawUrl);
  await page.getByTestId('github-token').fill(token);
  await page.getByTestId('gitlab-url').fill(gitlab.baseUrl);
  await page.getByTestId('gitlab-token').fill('glpat-writer');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();
  if (narrow(page)) await page.getByRole('button', { name: 'Show sessions' }).click();
  await page.getByTestId('repo-url').fill(address);
  await page.getByTestId('repo-import').click();
  await expect(page.getByTestId('import-result')).toContainText('Imported', { timeout: 20_000 });
  if (narrow(page)) await page.mouse.click(350, 500); // the scrim beside the drawer closes it
}

/** The agent edits src/app.js from `from` to `to`. */
async function agentEdits(page: Page, mock: MockProvider, prompt: string, from: string, to: string) {
  mock.setScript([callTurn('edit', { path: 'src/app.js', edits: [{ oldText: from, newText: to }] }), textTurn('Done.')]);
  if (narrow(page)) await page.getByTestId('view-chat').click();
  await ask(page, prompt);
  await expect(page.locator('[data-testid="tool-call"][data-tool="edit"]').last()).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(page.getByTestId('send')).toBeVisible();
}

async function showChanges(page: Page) {
  if (narrow(page)) await page.getByTestId('view-workspace').click();
  await page.getByTestId('tab-changes').click();
  await expect(page.getByTestId('change-file').filter({ hasText: 'src/app.js' })).toBeVisible();
}

/** Commits on `branch` of `owner/name` since octo/`name`'s main. */
function commitsOnBranch(owner: string, name: string, branch: string): number {
  const repo = github.repo(owner, name)!;
  const base = github.repo('octo', name)!.branches.get('main');
  let count = 0;
  for (let sha = repo.branches.get(branch); sha && sha !== base; sha = repo.commits.get(sha)?.parents?.at(0)) count++;
  return count;
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('import, edit, open a pull request, edit again, push again: the same pull request, two commits', async ({ page, mock }) => {
      const name = await freshRepo();
      await importedSession(page, mock, `https://github.com/octo/${name}`, 'ghp_mock');
      await agentEdits(page, mock, 'Make the app log 2', 'console.log(1);', 'console.log(2);');
      await showChanges(page);

      await page.getByTestId('open-pr').click();
      await expect(page.getByTestId('open-pr')).toHaveText('Open pull request');
      await expect(page.getByTestId('pr-branch')).toHaveValue('conch/make-the-app-log-2');
      await expect(page.getByTestId('pr-message')).toHaveValue('Make the app log 2\n\n- modified src/app.js');
      mock.setScript([textTurn('Log 2 at start\n\nThe app now logs 2 instead of 1.')]);
      await page.getByTestId('pr-draft').click();
      await expect(page.getByTestId('pr-title')).toHaveValue('Log 2 at start');
      await expect(page.getByTestId('pr-body')).toHaveValue('The app now logs 2 instead of 1.');
      await snapshot(page, `pr-form-${size.width}`);

      await page.getByTestId('pr-submit').click();
      const link = page.getByTestId('pr-result').getByTestId('pr-link');
      await expect(link).toHaveAttribute('href', new RegExp(`/octo/${name}/pull/1$`), { timeout: 20_000 });
      await expect(page.getByTestId('pr-result')).toContainText('Pull request #1 opened');
      expect(github.pulls('octo', name)).toMatchObject([{ number: 1, head: 'conch/make-the-app-log-2', title: 'Log 2 at start', body: 'The app now logs 2 instead of 1.' }]);
      await snapshot(page, `pr-opened-${size.width}`);

      await agentEdits(page, mock, 'Now log 3', 'console.log(2);', 'console.log(3);');
      await showChanges(page);
      await page.getByTestId('pr-submit').click();
      await expect(page.getByTestId('pr-result')).toContainText('Pull request #1 updated', { timeout: 20_000 });
      await expect(link).toHaveAttribute('href', new RegExp(`/octo/${name}/pull/1$`));
      expect(github.pulls('octo', name)).toHaveLength(1);
      expect(commitsOnBranch('octo', name, 'conch/make-the-app-log-2')).toBe(2);
      await snapshot(page, `pr-updated-${size.width}`);
    });

    test('a token without write permission gets the fork offer, and the pull request comes from the fork', async ({ page, mock }) => {
      const name = await freshRepo();
      await importedSession(page, mock, `https://github.com/octo/${name}`, 'ghp_reader');
      await agentEdits(page, mock, 'Make the app log 2', 'console.log(1);', 'console.log(2);');
      await showChanges(page);
      await page.getByTestId('open-pr').click();
      await page.getByTestId('pr-submit').click();
      await expect(page.getByTestId('pr-error')).toContainText(`cannot push to octo/${name}`, { timeout: 20_000 });
      await expect(page.getByTestId('pr-fork')).toBeVisible();
      await snapshot(page, `pr-fork-offer-${size.width}`);

      await page.getByTestId('pr-fork').click();
      await expect(page.getByTestId('pr-link')).toHaveAttribute('href', new RegExp(`/octo/${name}/pull/1$`), { timeout: 20_000 });
      await expect(page.getByTestId('pr-fork')).toBeHidden();
      expect(github.pulls('octo', name)).toMatchObject([{ number: 1, headOwner: 'reader', head: 'conch/make-the-app-log-2' }]);
      expect(commitsOnBranch('reader', name, 'conch/make-the-app-log-2')).toBe(1);
    });

    test("the agent's git push waits for the person, then opens the pull request; declining sends nothing", async ({ page, mock }) => {
      const name = await freshRepo();
      await importedSession(page, mock, `https://github.com/octo/${name}`, 'ghp_mock');
      const commitAndPush = "sed -i 's/1/2/' src/app.js && git add -A && git -c user.name=Agent -c user.email=agent@example.com commit -q -m 'Log 2' && git push";
      mock.setScript([callTurn('bash', { command: commitAndPush }), textTurn('Pushed.')]);
      if (narrow(page)) await page.getByTestId('view-chat').click();
      await ask(page, 'Commit and push');
      const card = page.getByTestId('git-push-card');
      await expect(card).toContainText(`Push to github.com/octo/${name}?`, { timeout: 20_000 });
      await expect(card.getByTestId('git-push-branch')).toHaveText('conch/commit-and-push');
      await expect(card).toContainText('src/app.js');
      expect(github.pulls('octo', name)).toEqual([]);
      await snapshot(page, `git-push-question-${size.width}`);
      await card.getByTestId('git-push-allow').click();
      const bash = page.locator('[data-testid="tool-call"][data-tool="bash"]').last();
      await expect(bash).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
      expect(github.pulls('octo', name)).toMatchObject([{ number: 1, head: 'conch/commit-and-push', base: 'main', title: 'Log 2' }]);
      // The tool result reaches the model with the next request, which may still be on its way.
      await expect.poll(() => JSON.stringify(mock.requests.at(-1)?.body ?? '')).toContain('Pull request #1 opened');

      mock.setScript([callTurn('bash', { command: "echo more >> README.md && git commit -q -am 'More' && git push" }), textTurn('Declined.')]);
      await ask(page, 'Push once more');
      await expect(card).toBeVisible({ timeout: 20_000 });
      await card.getByTestId('git-push-deny').click();
      await expect(page.locator('[data-testid="tool-call"][data-tool="bash"]').last()).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
      await expect.poll(() => JSON.stringify(mock.requests.at(-1)?.body ?? '')).toContain('the person declined the push');
      expect(commitsOnBranch('octo', name, 'conch/commit-and-push')).toBe(1);
    });

    test('a GitLab import opens a merge request, and a push again updates the same one', async ({ page, mock }) => {
      const name = `site-${++serial}`;
      gitlab.addProject({ namespace: 'team', name, branches: { main: [{ path: 'README.md', data: '# site\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }] } });
      await importedSession(page, mock, `${gitlab.baseUrl}/team/${name}`, 'ghp_mock');
      await agentEdits(page, mock, 'Make the app log 2', 'console.log(1);', 'console.log(2);');
      await showChanges(page);
      await expect(page.getByTestId('open-pr')).toHaveText('Open merge request');
      await page.getByTestId('open-pr').click();
      await page.getByTestId('pr-submit').click();
      const link = page.getByTestId('pr-result').getByTestId('pr-link');
      await expect(link).toHaveAttribute('href', `${gitlab.baseUrl}/team/${name}/-/merge_requests/1`, { timeout: 20_000 });
      await expect(page.getByTestId('pr-result')).toContainText('Merge request #1 opened');
      await snapshot(page, `mr-opened-${size.width}`);

      await agentEdits(page, mock, 'Now log 3', 'console.log(2);', 'console.log(3);');
      await showChanges(page);
      await page.getByTestId('pr-submit').click();
      await expect(page.getByTestId('pr-result')).toContainText('Merge request #1 updated', { timeout: 20_000 });
      expect(gitlab.mergeRequests(`team/${name}`)).toMatchObject([{ iid: 1, source: 'conch/make-the-app-log-2', target: 'main' }]);
      const project = gitlab.project(`team/${name}`)!;
      const head = project.commits.get(project.refs.get('conch/make-the-app-log-2')!)!;
      expect(head.parents?.length).toBe(1);
      expect(project.commits.get(head.parents![0])?.parents).toEqual([project.refs.get('main')]);
    });
  });
}
