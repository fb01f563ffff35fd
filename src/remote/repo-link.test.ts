import { describe, expect, it } from 'vitest';
import { repoFromLink, repoLink, withoutRepoLink } from './repo-link';

const search = (link: string) => new URL(link).search;

describe('repoFromLink', () => {
  it('reads github.com/OWNER/REPO with and without @REF', () => {
    expect(repoFromLink('?repo=github.com/octo/hello')).toEqual({
      ok: true, input: 'github.com/octo/hello', location: { host: 'github', origin: 'https://github.com', owner: 'octo', repo: 'hello', treePath: [] },
    });
    expect(repoFromLink('?x=1&repo=github.com/octo/hello@v1.0')).toMatchObject({ ok: true, location: { owner: 'octo', repo: 'hello', treePath: ['v1.0'] } });
  });

  it('reads a GitLab address, encoded or not, subgroups and a slashed ref included', () => {
    const encoded = `?repo=${encodeURIComponent('https://gitlab.com/group/sub/app/-/tree/feature/x')}`;
    const plain = '?repo=https://gitlab.com/group/sub/app/-/tree/feature/x';
    for (const query of [encoded, plain]) {
      expect(repoFromLink(query)).toMatchObject({ ok: true, location: { host: 'gitlab', owner: 'group/sub', repo: 'app', treePath: ['feature', 'x'] } });
    }
    expect(repoFromLink('?repo=https://git.example.org/team/app', { gitlabOrigins: ['https://git.example.org'] })).toMatchObject({
      ok: true, location: { host: 'gitlab', origin: 'https://git.example.org', owner: 'team' },
    });
  });

  it('is null without ?repo=, and an error that says what was expected for what it cannot read', () => {
    expect(repoFromLink('')).toBeNull();
    expect(repoFromLink('?theme=dark')).toBeNull();
    expect(repoFromLink('?repo=')).toEqual({ ok: false, error: 'The link names no repository: expected ?repo=github.com/OWNER/REPO or a GitLab address.' });
    const other = repoFromLink('?repo=https://example.com/a/b');
    expect(other).toEqual({ ok: false, error: expect.stringMatching(/^The link's repository cannot be opened: example\.com is neither GitHub nor GitLab/) });
    expect(repoFromLink('?repo=javascript:alert(1)')).toMatchObject({ ok: false });
    expect(repoFromLink(`?repo=github.com/o/${'r'.repeat(3000)}`)).toMatchObject({ ok: false, error: expect.stringContaining('over 2048 characters') });
  });
});

describe('repoLink', () => {
  it('names a GitHub import as github.com/O/R@REF, readable, keeping the other parameters and the hash as they were', () => {
    const link = repoLink('https://conch.example/app/?theme=dark&q=a%20b+c#files', { host: 'github', owner: 'octo', repo: 'hello', ref: 'v1.0' });
    expect(link).toBe('https://conch.example/app/?theme=dark&q=a%20b+c&repo=github.com/octo/hello@v1.0#files');
    expect(repoFromLink(search(link))).toMatchObject({ ok: true, location: { owner: 'octo', repo: 'hello', treePath: ['v1.0'] } });
  });

  it('replaces a ?repo= already there rather than adding a second', () => {
    const link = repoLink('http://localhost:5173/?repo=github.com/a/b&x=1', { host: 'github', owner: 'octo', repo: 'hello', ref: 'main' });
    expect(link).toBe('http://localhost:5173/?x=1&repo=github.com/octo/hello@main');
  });

  it('gives a slashed ref, or a folder, the tree form, which reads back to the same ref', () => {
    const slashed = repoLink('http://localhost:5173/', { host: 'github', owner: 'octo', repo: 'hello', ref: 'feature/x' });
    expect(slashed).toBe('http://localhost:5173/?repo=github.com/octo/hello/tree/feature/x');
    expect(repoFromLink(search(slashed))).toMatchObject({ ok: true, location: { treePath: ['feature', 'x'] } });
    const folder = repoLink('http://localhost:5173/', { host: 'github', owner: 'octo', repo: 'hello', ref: 'main', folder: 'packages/web' });
    expect(folder).toBe('http://localhost:5173/?repo=github.com/octo/hello/tree/main/packages/web');
  });

  it('names a GitLab import by its web address and -/tree/REF, on gitlab.com or a self-managed host', () => {
    const link = repoLink('http://localhost:5173/', { host: 'gitlab', owner: 'group/sub', repo: 'app', ref: 'feature/x' });
    expect(link).toBe('http://localhost:5173/?repo=https://gitlab.com/group/sub/app/-/tree/feature/x');
    expect(repoFromLink(search(link))).toMatchObject({ ok: true, location: { host: 'gitlab', owner: 'group/sub', repo: 'app', treePath: ['feature', 'x'] } });
    const own = repoLink('http://localhost:5173/', { host: 'gitlab', owner: 'team', repo: 'app', ref: 'main', webOrigin: 'https://git.example.org/' });
    expect(own).toBe('http://localhost:5173/?repo=https://git.example.org/team/app/-/tree/main');
  });

  it('escapes what a query cannot hold, and reads it back exactly', () => {
    for (const ref of ['a#b', 'fix+1', 'v1&2', '100%', 'feat/é']) {
      const github = repoLink('http://localhost:5173/?x=1', { host: 'github', owner: 'octo', repo: 'hello', ref });
      const gitlab = repoLink('http://localhost:5173/?x=1', { host: 'gitlab', owner: 'group', repo: 'app', ref });
      expect(new URL(github).searchParams.get('x')).toBe('1');
      const fromGitHub = repoFromLink(search(github));
      const fromGitLab = repoFromLink(search(gitlab));
      expect(fromGitHub?.ok && fromGitHub.location.treePath.join('/')).toBe(ref);
      expect(fromGitLab?.ok && fromGitLab.location.treePath.join('/')).toBe(ref);
    }
  });
});

describe('withoutRepoLink', () => {
  it('takes ?repo= away and leaves the rest', () => {
    expect(withoutRepoLink('http://localhost:5173/?a=1&repo=github.com/o/r&b=%20#h')).toBe('http://localhost:5173/?a=1&b=%20#h');
    expect(withoutRepoLink('http://localhost:5173/?repo=github.com/o/r')).toBe('http://localhost:5173/');
  });
});
