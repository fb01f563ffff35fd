// What the push tests share: a fresh repository on the mock per test, a push request for it, and what a branch
// holds afterwards, read back with the import client (so a push is checked by what a person would import).
import type { MockFileSpec } from '../../../../e2e/mock-github/fixture';
import type { MockGitHub } from '../../../../e2e/mock-github/server';
import type { FileChange } from '../../file-change';
import { importGitHubRepo, type GitHubImport } from '../import-repo';
import type { GitHubPushOptions, GitHubPushRequest } from '../push';
import { TOKEN } from './mock-access';

const encoder = new TextEncoder();
let serial = 0;

export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7, 7, 7]);

/** The files every test repository starts with: 30 text files, a script, a workflow. */
export function startingFiles(): MockFileSpec[] {
  const files: MockFileSpec[] = [];
  for (let i = 0; i < 30; i++) files.push({ path: `src/file${i}.ts`, data: `export const v${i} = ${i};\n` });
  files.push({ path: 'README.md', data: '# app\n' }, { path: 'old.txt', data: 'to delete\n' });
  files.push({ path: '.github/workflows/ci.yml', data: 'on: push\n' });
  return files;
}

/** A new repository `octo/app-N` on the mock, and the origin an import of its main would record. */
export async function freshRepo(mock: MockGitHub, files = startingFiles()): Promise<GitHubPushRequest['origin']> {
  const name = `app-${++serial}`;
  const repo = await mock.addRepo({ owner: 'octo', name, branches: { main: files } });
  return { owner: 'octo', repo: name, ref: 'main', sha: repo.branches.get('main') as string };
}

export function text(path: string, content: string, kind: 'added' | 'modified' = 'modified'): FileChange {
  return { path, kind, data: encoder.encode(content) };
}

/** A push request of `changes` with the default texts. */
export function pushOf(origin: GitHubPushRequest['origin'], changes: FileChange[], overrides: Partial<GitHubPushRequest> = {}): GitHubPushRequest {
  return { origin, changes, branch: 'conch/fix-the-bug', message: 'Fix the bug', title: 'Fix the bug', body: 'Made with Conch.', ...overrides };
}

export function pushAccess(mock: MockGitHub, extra: Partial<GitHubPushOptions> = {}): GitHubPushOptions {
  return { fetch, apiUrl: mock.apiUrl, token: TOKEN, ...extra };
}

/** What `branch` of `owner/repo` holds, as an import reads it. */
export async function branchFiles(mock: MockGitHub, owner: string, repo: string, branch: string): Promise<GitHubImport> {
  const location = { host: 'github' as const, origin: 'https://github.com', owner, repo, treePath: branch.split('/') };
  return importGitHubRepo(location, { fetch, apiUrl: mock.apiUrl, rawUrl: mock.rawUrl, token: TOKEN });
}

/** The requests `mock` recorded as `METHOD path`, query strings dropped. */
export function sequence(mock: MockGitHub): string[] {
  return mock.requests.filter((r) => r.kind === 'api').map((r) => `${r.method} ${r.path.split('?')[0]}`);
}
