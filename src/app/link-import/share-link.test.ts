import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionLinkParam } from './link-param';
import { markdownSection, SHARING_DOCS_HEADING, shareLinkFor } from './share-link';

describe('shareLinkFor', () => {
  it('gives this page with ?session= naming the hosted file, which opens back to that file', () => {
    const file = 'https://gist.githubusercontent.com/ada/0123abcd/raw/fix-login.conch.zip';
    const made = shareLinkFor('https://conch.example/app/index.html?theme=dark#replay=3', file);
    expect(made).toEqual({ ok: true, host: 'gist.githubusercontent.com', link: `https://conch.example/app/index.html?session=${file}` });
    if (made.ok) expect(sessionLinkParam(new URL(made.link).search, '')).toBe(file);
  });

  it('offers no link for an address a link would refuse', () => {
    expect(shareLinkFor('https://conch.example/', 'http://files.example.com/s.conch.zip')).toMatchObject({ ok: false, error: expect.stringContaining('https:') });
    expect(shareLinkFor('https://conch.example/', '')).toMatchObject({ ok: false });
  });
});

describe('markdownSection', () => {
  it('cuts one ## section out, up to the next heading of its level or above', () => {
    const md = '# T\n\n## A\none\n### sub\ntwo\n## B\nthree\n';
    expect(markdownSection(md, 'A')).toBe('one\n### sub\ntwo');
    expect(markdownSection(md, 'B')).toBe('three');
    expect(markdownSection(md, 'C')).toBe('');
  });

  it("finds the README's section the share dialog shows", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = markdownSection(readme, SHARING_DOCS_HEADING);
    expect(section).toContain('Access-Control-Allow-Origin');
    expect(section).toContain('?session=');
  });
});
