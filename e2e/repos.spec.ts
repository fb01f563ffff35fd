// Importing from GitHub by address in the built app, against the loopback GitHub: the files in the Files tab and the
// result, a rate-limited import saying when to retry, and a ?repo= link that fetches nothing before its confirmation.
import type { Page } from '@playwright/test';
import { startMockGitHub, type MockGitHub } from './mock-github/server';
import { startMockGitLab, type MockGitLab } from './mock-gitlab/server';
import { expect, snapshot, test } from './fixtures';

let github: MockGitHub;
let gitlab: MockGitLab;
test.beforeAll(async () => {
  gitlab = await startMockGitLab({ tokens: { 'glpat-reader': { username: 'reader', scopes: ['read_api'] } } });
  github = await startMockGitHub({
    repos: [{ owner: 'octo', name: 'hello', branches: { main: [{ path: 'README.md', data: '# hello\n' }, { path: 'src/app.js', data: 'console.log(1);\n' }, { path: 'vendor/lib', submodule: 'c'.repeat(40) }] } }],
  });
});
test.afterAll(async () => {
  await github.close();
  await gitlab.close();
});

async function pointAtMock(page: Page, url = '/') {
  await page.goto(url);
  await expect(page.getByTestId('runtime-status')).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await page.getByTestId('settings-open').click();
  await page.getByTestId('github-api-url').fill(github.apiUrl);
  await page.getByTestId('github-raw-url').fill(github.rawUrl);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-save')).toBeHidden();
}

async function openSidebar(page: Page) {
  if ((page.viewportSize()?.width ?? 1280) < 700) await page.getByRole('button', { name: 'Show sessions' }).click();
}

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('imports a public repo by address: the result, and its files in the Files tab', async ({ page }) => {
      github.setRateRemaining(60);
      await pointAtMock(page);
      await openSidebar(page);
      await page.getByTestId('repo-url').fill('https://github.com/octo/hello');
      await snapshot(page, `repo-field-${size.width}`);
      await page.getByTestId('repo-import').click();
      await expect(page.getByTestId('repo-progress')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
      await expect(page.getByTestId('import-result')).toContainText('Imported octo/hello at main');
      await expect(page.getByTestId('repo-progress')).toContainText('vendor/lib: a submodule, not imported');
      await expect(page.getByTestId('copy-repo-link')).toBeVisible();
      await snapshot(page, `repo-imported-${size.width}`);
      if (size.width < 700) {
        await page.mouse.click(350, 500); // the scrim beside the drawer closes it
        await page.getByTestId('view-workspace').click();
      } else {
        await page.getByTestId('tab-files').click();
      }
      await expect(page.getByTestId('file-tree')).toContainText('README.md');
      await expect(page.getByTestId('file-tree')).toContainText('src');
    });

    test("Settings' Test token says whose token it is, for GitHub and for GitLab", async ({ page }) => {
      await pointAtMock(page);
      await page.getByTestId('settings-open').click();
      await page.getByTestId('github-token').fill('ghp_wrong');
      await page.getByTestId('token-test').click();
      await expect(page.getByTestId('token-result')).toHaveAttribute('data-kind', 'rejected');
      await page.getByTestId('github-token').fill('ghp_mock');
      await expect(page.getByTestId('token-result')).toBeHidden(); // a changed token is not the tested one
      await page.getByTestId('token-test').click();
      await expect(page.getByTestId('token-result')).toContainText('Signed in as');
      await page.getByTestId('gitlab-url').fill(gitlab.baseUrl);
      await page.getByTestId('gitlab-token').fill('glpat-reader');
      await page.getByTestId('gitlab-token-test').click();
      await expect(page.getByTestId('gitlab-token-result')).toHaveText('✓ Signed in as reader; scopes: read_api. Opening merge requests needs the api scope.');
      await snapshot(page, `token-tests-${size.width}`);
    });

    test('a rate-limited import says when to retry', async ({ page }) => {
      await pointAtMock(page);
      github.setRateRemaining(0);
      await openSidebar(page);
      await page.getByTestId('repo-url').fill('octo/hello');
      await page.getByTestId('repo-import').click();
      await expect(page.getByTestId('repo-error')).toContainText(/rate limit is used up until \d\d:\d\d \(local time\)\. Add a token/);
      await expect(page.getByTestId('repo-progress')).toHaveAttribute('data-state', 'failed');
      await snapshot(page, `repo-rate-limited-${size.width}`);
      github.setRateRemaining(60);
    });

    test('a ?repo= link shows its confirm card and fetches nothing before the click', async ({ page }) => {
      github.setRateRemaining(60);
      github.resetCounts();
      await pointAtMock(page, '/?repo=github.com/octo/hello@main');
      const card = page.getByRole('dialog', { name: 'Import from GitHub?' });
      await expect(card).toContainText('octo/hello');
      await expect(card).toContainText('main');
      await expect(card).toContainText('No token');
      await snapshot(page, `repo-link-card-${size.width}`);
      expect(github.counts).toEqual({ api: 0, graphql: 0, raw: 0 });
      await page.getByTestId('repo-link-confirm').click();
      await expect(page.getByTestId('import-result')).toContainText('Imported octo/hello at main', { timeout: 20_000 });
      expect(github.counts.api).toBeGreaterThan(0);
    });
  });
}
