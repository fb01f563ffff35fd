import { describe, expect, it } from 'vitest';
import { SessionFileError } from '../../store/errors';
import type { SessionLibrary } from '../library/library.svelte';
import { LinkImport, type PageAddress } from './link-import.svelte';

const FILE = 'https://files.example.com/shared/fix-login.conch.zip';

/** The page's address as a string the import rewrites, with every hash it set. */
function fakePage(href: string): PageAddress & { current: string; hashes: string[] } {
  const page = {
    current: href,
    hashes: [] as string[],
    href: () => page.current,
    replace: (next: string) => void (page.current = next),
    setHash: (hash: string) => void page.hashes.push(hash),
  };
  return page;
}

/** A library whose import records what it was given (or refuses it as `refuse` says). */
function fakeLibrary(refuse?: Error): { library: SessionLibrary; imported: Uint8Array[] } {
  const imported: Uint8Array[] = [];
  const transfer = {
    importSessionFile: async (data: Uint8Array) => {
      if (refuse) throw refuse;
      imported.push(data);
      return { id: 's2', importedFrom: { title: 'Fix the login' } };
    },
  };
  return { library: { transfer } as unknown as SessionLibrary, imported };
}

function host(answer: (init: RequestInit | undefined) => Promise<Response>): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: async (_url, init) => {
      calls.push(init?.method ?? 'GET');
      return answer(init);
    },
  };
}

describe('LinkImport', () => {
  it('refuses a non-https link on the card without fetching anything', async () => {
    const { fetch, calls } = host(async () => new Response('x'));
    const page = fakePage(`https://conch.example/?session=javascript:alert(1)`);
    const state = new LinkImport({ library: () => fakeLibrary().library, page, fetch });
    await state.show('javascript:alert(1)');
    expect(state.phase).toBe('refused');
    expect(state.error).toContain('only from https: addresses');
    await state.open();
    expect(calls).toEqual([]);
    state.cancel();
    expect(page.current).toBe('https://conch.example/');
  });

  it('asks only the size before Open, then imports the fetched bytes, opens replay at step 1 and drops the link', async () => {
    const bytes = new Uint8Array([80, 75, 5, 6, 1, 2]);
    const { fetch, calls } = host(async (init) => new Response(init?.method === 'HEAD' ? null : bytes, { headers: { 'Content-Length': '6' } }));
    const page = fakePage(`https://conch.example/app/?theme=dark&session=${FILE}`);
    const { library, imported } = fakeLibrary();
    const state = new LinkImport({ library: () => library, page, fetch });
    await state.show(FILE);
    expect(state).toMatchObject({ phase: 'confirm', size: 6, sizeAsked: true, link: { host: 'files.example.com', fileName: 'fix-login.conch.zip' } });
    expect(calls).toEqual(['HEAD']);
    expect(imported).toEqual([]);

    await state.open();
    expect(calls).toEqual(['HEAD', 'GET']);
    expect(imported.map((d) => [...d])).toEqual([[...bytes]]);
    expect(state.phase).toBe('done');
    expect(state.bytes).toBe(6);
    expect(page.current).toBe('https://conch.example/app/?theme=dark');
    expect(page.hashes).toEqual(['replay=1']);
  });

  it('tells a refused file in the words of a file import, keeping the link for a retry', async () => {
    const { fetch } = host(async () => new Response(new Uint8Array([1])));
    const page = fakePage(`https://conch.example/#session=${FILE}`);
    const refusal = new SessionFileError('session.jsonl line 2 (message.role): expected user, assistant or toolResult.', { line: 2 });
    const state = new LinkImport({ library: () => fakeLibrary(refusal).library, page, fetch });
    await state.show(FILE);
    await state.open();
    expect(state.phase).toBe('failed');
    expect(state.error).toBe('fix-login.conch.zip was not imported: session.jsonl line 2 (message.role): expected user, assistant or toolResult.');
    expect(page.hashes).toEqual([]);
    expect(page.current).toContain('#session=');
  });

  it('says what the host must allow when the download cannot be read', async () => {
    const { fetch } = host(async () => Promise.reject(new TypeError('Failed to fetch')));
    const { library, imported } = fakeLibrary();
    const state = new LinkImport({ library: () => library, page: fakePage(`https://conch.example/?session=${FILE}`), fetch });
    await state.show(FILE);
    expect(state).toMatchObject({ phase: 'confirm', size: null, sizeAsked: true });
    await state.open();
    expect(state.phase).toBe('failed');
    expect(state.error).toContain('Access-Control-Allow-Origin');
    expect(imported).toEqual([]);
  });

  it('Cancel during the download imports nothing and closes the card', async () => {
    let started!: () => void;
    const downloading = new Promise<void>((resolve) => (started = resolve));
    const { fetch } = host(async (init) => {
      if (init?.method === 'HEAD') return new Response(null);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(10));
          init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          started();
        },
      });
      return new Response(body);
    });
    const page = fakePage(`https://conch.example/?session=${FILE}`);
    const { library, imported } = fakeLibrary();
    const state = new LinkImport({ library: () => library, page, fetch });
    await state.show(FILE);
    const opening = state.open();
    await downloading;
    expect(state.phase).toBe('fetching');
    state.cancel();
    await opening;
    expect(state.phase).toBe('done');
    expect(imported).toEqual([]);
    expect(page.hashes).toEqual([]);
    expect(page.current).toBe('https://conch.example/');
  });

  it('refuses on the card a file the host says is over the cap', async () => {
    const { fetch, calls } = host(async () => new Response(null, { headers: { 'Content-Length': String(2 * 1024 ** 3) } }));
    const state = new LinkImport({ library: () => fakeLibrary().library, page: fakePage('https://conch.example/'), fetch });
    await state.show(FILE);
    expect(state.phase).toBe('failed');
    expect(state.error).toBe('fix-login.conch.zip from files.example.com is 2.0 GB, over the 1.0 GB limit for session files. Nothing was imported.');
    expect(calls).toEqual(['HEAD']);
  });
});
