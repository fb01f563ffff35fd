import { describe, expect, it } from 'vitest';
import { fetchSessionFile, probeSessionFile, sizeProblem } from './fetch-session-file';
import { readSessionLink, type SessionLink } from './session-link';

const link = (url = 'https://files.example.com/s.conch.zip'): SessionLink => {
  const read = readSessionLink(url);
  if (!read.ok) throw new Error(read.error);
  return read.link;
};

/** A body that arrives in `chunks`, counting how many were pulled (a capped download must stop pulling). */
function streamed(chunks: Uint8Array[]): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks.length) controller.close();
      else controller.enqueue(chunks[pulled++]);
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => pulled };
}

const bytes = (n: number, fill = 7) => new Uint8Array(n).fill(fill);

describe('fetchSessionFile', () => {
  it('returns the bytes, reporting progress against Content-Length, asking for no cookies', async () => {
    const { body } = streamed([bytes(3, 1), bytes(2, 2)]);
    const seen: RequestInit[] = [];
    const progress: { bytes: number; totalBytes: number | null }[] = [];
    const data = await fetchSessionFile(link(), {
      fetch: async (_url, init) => {
        seen.push(init!);
        return new Response(body, { headers: { 'Content-Length': '5' } });
      },
      onProgress: (p) => progress.push(p),
    });
    expect([...data]).toEqual([1, 1, 1, 2, 2]);
    expect(progress).toEqual([{ bytes: 0, totalBytes: 5 }, { bytes: 3, totalBytes: 5 }, { bytes: 5, totalBytes: 5 }]);
    expect(seen[0]).toMatchObject({ mode: 'cors', credentials: 'omit' });
  });

  it('says plainly that the host must allow cross-origin reads when the fetch fails without an answer', async () => {
    const failing = fetchSessionFile(link(), { fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(failing).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringContaining('must allow cross-origin reads (send Access-Control-Allow-Origin') });
    await expect(failing).rejects.toThrow(/gist’s raw URL/);
  });

  it('names the status of an error answer and what to check', async () => {
    const answer = fetchSessionFile(link(), { fetch: async () => new Response('no', { status: 404, statusText: 'Not Found' }) });
    await expect(answer).rejects.toMatchObject({ kind: 'status', message: expect.stringMatching(/^files\.example\.com answered 404 Not Found for s\.conch\.zip\. Check that the link points at the file itself/) });
  });

  it('refuses a file whose Content-Length is over the cap before reading any of it', async () => {
    const { body, pulled } = streamed([bytes(10)]);
    const big = fetchSessionFile(link(), { maxBytes: 8, fetch: async () => new Response(body, { headers: { 'Content-Length': '10' } }) });
    await expect(big).rejects.toMatchObject({ kind: 'too-large', message: 's.conch.zip from files.example.com is 10 bytes, over the 8 bytes limit for session files. Nothing was imported.' });
    expect(pulled()).toBe(0);
  });

  it('stops reading as soon as a body without (or lying about) its length passes the cap', async () => {
    const { body, pulled } = streamed([bytes(4), bytes(4), bytes(4), bytes(4), bytes(4)]);
    const lying = fetchSessionFile(link(), { maxBytes: 10, fetch: async () => new Response(body, { headers: { 'Content-Length': '6' } }) });
    await expect(lying).rejects.toMatchObject({ kind: 'too-large', message: expect.stringContaining('passed 10 bytes while downloading') });
    expect(pulled()).toBe(3);
  });

  it('turns an abort, before the answer or during the body, into a cancel that changed nothing', async () => {
    const early = new AbortController();
    early.abort();
    const before = fetchSessionFile(link(), { signal: early.signal, fetch: async (_u, init) => Promise.reject(init?.signal?.reason) });
    await expect(before).rejects.toMatchObject({ name: 'AbortError', message: 'Opening the link cancelled; nothing was changed.' });

    const during = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes(2));
        during.signal.addEventListener('abort', () => controller.error(during.signal.reason));
      },
    });
    const reading = fetchSessionFile(link(), { signal: during.signal, fetch: async () => new Response(body), onProgress: (p) => p.bytes === 2 && during.abort() });
    await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('says the download broke off when the body fails midway', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(bytes(1024));
        else controller.error(new TypeError('network error'));
      },
    }, { highWaterMark: 0 });
    await expect(fetchSessionFile(link(), { fetch: async () => new Response(body) })).rejects.toThrow('The download of s.conch.zip from files.example.com broke off after 1.0 KB: try again.');
  });
});

describe('probeSessionFile and sizeProblem', () => {
  it('reads the size from a HEAD, and is honest (null) when the host does not say or does not answer', async () => {
    const methods: string[] = [];
    const sized = await probeSessionFile(link(), { fetch: async (_u, init) => (methods.push(init!.method!), new Response(null, { headers: { 'Content-Length': '2048' } })) });
    expect(sized).toEqual({ size: 2048 });
    expect(methods).toEqual(['HEAD']);
    expect(await probeSessionFile(link(), { fetch: async () => new Response(null) })).toEqual({ size: null });
    expect(await probeSessionFile(link(), { fetch: async () => new Response(null, { status: 405, headers: { 'Content-Length': '10' } }) })).toEqual({ size: null });
    expect(await probeSessionFile(link(), { fetch: async () => Promise.reject(new TypeError('Failed to fetch')) })).toEqual({ size: null });
  });

  it('tells a known size over the cap before anything is downloaded', () => {
    expect(sizeProblem(link(), 2 * 1024 ** 3)).toBe('s.conch.zip from files.example.com is 2.0 GB, over the 1.0 GB limit for session files. Nothing was imported.');
    expect(sizeProblem(link(), 1024)).toBeNull();
    expect(sizeProblem(link(), null)).toBeNull();
  });
});
