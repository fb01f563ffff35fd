import { describe, expect, it } from 'vitest';
import { downloadName, isoDay, MAX_SLUG_CHARS, slugify } from './download-name';

const day = new Date(2026, 10, 30, 23, 59); // local time: the name carries the person's calendar day

describe('slugify', () => {
  it('keeps the words of a title, lowercase, joined by single hyphens', () => {
    expect(slugify('Hello.sh script')).toBe('hello-sh-script');
    expect(slugify('  Fix: the "parser" / lexer?  ')).toBe('fix-the-parser-lexer');
    expect(slugify('Make the greeting friendlier…')).toBe('make-the-greeting-friendlier');
  });

  it('never yields a path, a dot file or a character a file system rejects', () => {
    for (const title of ['../../etc/passwd', '.env', 'a\\b:c*d?e"f<g>h|i', 'tab\there\nnew\u0000line', 'CON', '...']) {
      const slug = slugify(title);
      expect(slug).toMatch(/^[\p{L}\p{M}\p{N}]+(-[\p{L}\p{M}\p{N}]+)*$|^$/u);
    }
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
    expect(slugify('...')).toBe('');
  });

  it('drops Latin accents and keeps other scripts', () => {
    expect(slugify('Café déjà vu')).toBe('cafe-deja-vu');
    expect(slugify('修正 パーサー')).toBe('修正-パーサー');
    expect(slugify('Ünïcödé 👋 emoji')).toBe('unicode-emoji');
  });

  it('is at most 60 characters, cut between words, a single long word cut whole', () => {
    const title = 'Refactor the session library so that every import and export goes through one helper';
    const slug = slugify(title);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_CHARS);
    expect(slug).toBe('refactor-the-session-library-so-that-every-import-and-export');
    expect(title.toLowerCase().replaceAll(' ', '-').startsWith(slug)).toBe(true);
    expect(slugify('x'.repeat(200))).toBe('x'.repeat(60));
    expect([...slugify('𝒳'.repeat(100))]).toHaveLength(60); // cut by code point: no half surrogate pair
  });
});

describe('downloadName', () => {
  it('is the slug, the day and the extension; a fallback for a title without words', () => {
    expect(isoDay(day)).toBe('2026-11-30');
    expect(downloadName('Hello.sh script', '.conch.zip', 'session', day)).toBe('hello-sh-script-2026-11-30.conch.zip');
    expect(downloadName('', '.zip', 'workspace', day)).toBe('workspace-2026-11-30.zip');
    expect(downloadName('?!', '.html', 'session', day)).toBe('session-2026-11-30.html');
  });
});
