import { describe, expect, it } from 'vitest';
import { parseRepoUrl, refCandidates, repoWebUrl, type RepoLocation } from './repo-url';

function location(input: string, known = {}): RepoLocation {
  const result = parseRepoUrl(input, known);
  if (!result.ok) throw new Error(result.error);
  return result.location;
}

function error(input: string, known = {}): string {
  const result = parseRepoUrl(input, known);
  if (result.ok) throw new Error(`${input} was read as ${JSON.stringify(result.location)}`);
  return result.error;
}

describe('parseRepoUrl: GitHub', () => {
  it('reads a repository address, with or without .git, a trailing slash or the scheme', () => {
    const expected = { host: 'github', origin: 'https://github.com', owner: 'sveltejs', repo: 'svelte', treePath: [] };
    expect(location('https://github.com/sveltejs/svelte')).toEqual(expected);
    expect(location('https://github.com/sveltejs/svelte.git')).toEqual(expected);
    expect(location('  https://github.com/sveltejs/svelte/  ')).toEqual(expected);
    expect(location('github.com/sveltejs/svelte')).toEqual(expected);
    expect(location('https://github.com/sveltejs/svelte?tab=readme#top')).toEqual(expected);
  });

  it('reads tree/REF and tree/REF/SUBFOLDER as path segments for the host to split', () => {
    expect(location('https://github.com/o/r/tree/main').treePath).toEqual(['main']);
    expect(location('https://github.com/o/r/tree/feature/x/packages/core').treePath).toEqual(['feature', 'x', 'packages', 'core']);
    expect(location('https://github.com/o/r/tree/v1.2%2B3').treePath).toEqual(['v1.2+3']);
  });

  it('reads OWNER/REPO@REF and github.com/OWNER/REPO@REF, keeping a slashed ref whole', () => {
    expect(location('o/r')).toMatchObject({ owner: 'o', repo: 'r', treePath: [] });
    expect(location('my-org/my.repo@v2.0.1')).toMatchObject({ owner: 'my-org', repo: 'my.repo', treePath: ['v2.0.1'] });
    expect(location('o/r@feature/x')).toMatchObject({ treePath: ['feature/x'] });
    expect(location('github.com/o/r@dev')).toMatchObject({ owner: 'o', repo: 'r', treePath: ['dev'] });
  });

  it('takes a GitHub Enterprise host named in settings', () => {
    expect(location('https://git.example.com/team/app/tree/main', { githubOrigins: ['https://git.example.com/'] })).toEqual({
      host: 'github', origin: 'https://git.example.com', owner: 'team', repo: 'app', treePath: ['main'],
    });
  });

  it('says what it expected for addresses that are not a repository or its files', () => {
    expect(error('')).toMatch(/Paste a GitHub or GitLab address/);
    expect(error('https://github.com/sveltejs')).toMatch(/names no repository: expected https:\/\/github.com\/OWNER\/REPO/);
    expect(error('https://github.com/o/r/pulls')).toMatch(/not a repository's files/);
    expect(error('github.com/torvalds')).toMatch(/names no repository/);
    expect(error('https://example.com/o/r')).toMatch(/example.com is neither GitHub nor GitLab.*Settings/);
    expect(error('ftp://github.com/o/r')).toMatch(/Could not read/);
    expect(error('https://github.com/o/r%E0%A4%A')).toMatch(/Could not read/);
    expect(error('https://github.com/o/..')).toMatch(/Could not read|names no repository/);
  });
});

describe('parseRepoUrl: GitLab', () => {
  it('reads a project under groups and subgroups, and -/tree/REF[/SUBFOLDER]', () => {
    expect(location('https://gitlab.com/gitlab-org/cli')).toEqual({ host: 'gitlab', origin: 'https://gitlab.com', owner: 'gitlab-org', repo: 'cli', treePath: [] });
    expect(location('https://gitlab.com/a/b/c/project.git')).toMatchObject({ owner: 'a/b/c', repo: 'project', treePath: [] });
    expect(location('https://gitlab.com/a/b/project/-/tree/release/1.0/docs')).toMatchObject({ owner: 'a/b', repo: 'project', treePath: ['release', '1.0', 'docs'] });
    expect(location('gitlab.com/group/project@v3')).toMatchObject({ owner: 'group', repo: 'project', treePath: ['v3'] });
  });

  it('takes a self-managed GitLab named in settings, and refuses what is not a project', () => {
    expect(location('https://code.example.org/infra/tools', { gitlabOrigins: ['https://code.example.org'] })).toMatchObject({ host: 'gitlab', origin: 'https://code.example.org', owner: 'infra' });
    expect(error('https://gitlab.com/solo')).toMatch(/names no project/);
    expect(error('https://gitlab.com/g/p/-/issues/3')).toMatch(/not a project's files/);
  });
});

describe('refCandidates', () => {
  it('lists the splits of a tree path, shortest ref first, and the default branch for none', () => {
    expect(refCandidates(location('o/r'))).toEqual([{ ref: null, folder: '' }]);
    expect(refCandidates(location('https://github.com/o/r/tree/feature/x/src'))).toEqual([
      { ref: 'feature', folder: 'x/src' },
      { ref: 'feature/x', folder: 'src' },
      { ref: 'feature/x/src', folder: '' },
    ]);
  });
});

describe('repoWebUrl', () => {
  it('gives the address the repo is browsed at', () => {
    expect(repoWebUrl(location('https://gitlab.com/a/b/project/-/tree/main'))).toBe('https://gitlab.com/a/b/project');
    expect(repoWebUrl(location('o/r@v1'))).toBe('https://github.com/o/r');
  });
});
