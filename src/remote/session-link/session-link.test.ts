import { describe, expect, it } from 'vitest';
import { readSessionLink, sessionLinkParam, sessionShareLink, withoutSessionLink } from './session-link';

describe('readSessionLink', () => {
  it('takes an https: address, with the host and file name the confirm card shows', () => {
    expect(readSessionLink(' https://gist.githubusercontent.com/ada/abc/raw/def/fix%20login-2026-01-02.conch.zip#top ')).toEqual({
      ok: true,
      link: {
        url: 'https://gist.githubusercontent.com/ada/abc/raw/def/fix%20login-2026-01-02.conch.zip',
        host: 'gist.githubusercontent.com',
        fileName: 'fix login-2026-01-02.conch.zip',
      },
    });
    expect(readSessionLink('https://bucket.example.com:8443/')).toMatchObject({ ok: true, link: { host: 'bucket.example.com:8443', fileName: 'bucket.example.com:8443' } });
  });

  it('takes plain http: only from this machine, for development', () => {
    for (const url of ['http://localhost:8080/s.conch.zip', 'http://127.0.0.1:4000/s.conch.zip', 'http://[::1]/s.conch.zip']) {
      expect(readSessionLink(url)).toMatchObject({ ok: true, link: { fileName: 's.conch.zip' } });
    }
    const plain = readSessionLink('http://example.com/x.conch.zip');
    expect(plain).toEqual({ ok: false, error: expect.stringContaining('only from https: addresses') });
    expect(plain).toEqual({ ok: false, error: expect.stringContaining('example.com was given over plain http:') });
    // A name that only starts like loopback is another machine.
    expect(readSessionLink('http://localhost.example.com/x.conch.zip')).toMatchObject({ ok: false });
    expect(readSessionLink('http://127.0.0.1.nip.io/x.conch.zip')).toMatchObject({ ok: false });
  });

  it('refuses every other scheme, saying nothing was fetched', () => {
    for (const [url, scheme] of [
      ['javascript:alert(document.cookie)', 'javascript:'],
      ['JavaScript:alert(1)', 'javascript:'],
      ['data:application/zip;base64,UEsDBA==', 'data:'],
      ['file:///etc/passwd', 'file:'],
      ['blob:https://conch.example/1234', 'blob:'],
      ['ftp://example.com/x.conch.zip', 'ftp:'],
    ]) {
      expect(readSessionLink(url)).toEqual({ ok: false, error: `Conch opens session files only from https: addresses; “${scheme}” links are refused, and nothing was fetched.` });
    }
  });

  it('refuses what is not an address, an empty one, one with a password, and an absurdly long one', () => {
    expect(readSessionLink('')).toMatchObject({ ok: false, error: expect.stringContaining('names no session file') });
    expect(readSessionLink('gist.github.com/ada/abc')).toMatchObject({ ok: false, error: expect.stringContaining('is not a web address') });
    expect(readSessionLink('https://ada:secret@example.com/x.conch.zip')).toMatchObject({ ok: false, error: expect.stringContaining('user name or password') });
    expect(readSessionLink(`https://example.com/${'a'.repeat(5000)}`)).toMatchObject({ ok: false, error: expect.stringContaining('over 4,096 characters') });
  });
});

describe('sessionLinkParam', () => {
  it('reads ?session= first, then #session=, and is null without either', () => {
    expect(sessionLinkParam('?theme=dark&session=https://h.example/a.conch.zip', '')).toBe('https://h.example/a.conch.zip');
    expect(sessionLinkParam('', '#session=https%3A%2F%2Fh.example%2Fb.conch.zip')).toBe('https://h.example/b.conch.zip');
    expect(sessionLinkParam('?session=https://h.example/a.conch.zip', '#session=https://h.example/b.conch.zip')).toBe('https://h.example/a.conch.zip');
    expect(sessionLinkParam('?repo=github.com/o/r', '#replay=3')).toBeNull();
  });
});

describe('sessionShareLink and withoutSessionLink', () => {
  it('writes a link that reads back to the same file address, the file’s own query intact', () => {
    const file = 'https://files.example.com/shared/s.conch.zip?X-Sig=a%2Bb&expires=9';
    const link = sessionShareLink('https://conch.example/app/?theme=dark#replay=4', file);
    expect(link).toBe('https://conch.example/app/?session=https://files.example.com/shared/s.conch.zip%3FX-Sig%3Da%252Bb%26expires%3D9');
    const url = new URL(link);
    expect(sessionLinkParam(url.search, url.hash)).toBe(file);
  });

  it('drops session= from the query and the hash, keeping the rest as written', () => {
    expect(withoutSessionLink('https://conch.example/app/?theme=dark&session=https://h.example/a.zip&q=a%20b')).toBe('https://conch.example/app/?theme=dark&q=a%20b');
    expect(withoutSessionLink('https://conch.example/app/#session=https://h.example/a.zip')).toBe('https://conch.example/app/');
    expect(withoutSessionLink('https://conch.example/?session=x#replay=2')).toBe('https://conch.example/#replay=2');
  });
});
