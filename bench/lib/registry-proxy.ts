// A loopback stand-in for registry.npmjs.org for the browser benches: each request is fetched from the public
// registry once and kept on disk (outside git), then served from there, with the tarball addresses in the metadata
// pointing back at this server. CORS is open, as the public registry's is, so the built app can install from it.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const UPSTREAM = 'https://registry.npmjs.org';

export type RegistryProxy = {
  /** Base URL, ending in a slash (what the npm registry setting takes). */
  readonly url: string;
  /** Requests answered, and how many of them went to the public registry. */
  readonly counts: { served: number; fetched: number };
  close(): Promise<void>;
};

type Kept = { status: number; contentType: string; body: Buffer };

/** Starts the proxy on a free port of 127.0.0.1, keeping what it fetches in `cacheDir`. */
export async function startRegistryProxy(cacheDir: string): Promise<RegistryProxy> {
  mkdirSync(cacheDir, { recursive: true });
  const counts = { served: 0, fetched: 0 };
  let base = '';

  const kept = async (path: string, accept: string): Promise<Kept> => {
    const file = join(cacheDir, createHash('sha256').update(`${accept}\n${path}`).digest('hex'));
    try {
      const [head, body] = [readFileSync(`${file}.json`, 'utf8'), readFileSync(file)];
      return { ...(JSON.parse(head) as Omit<Kept, 'body'>), body };
    } catch {
      const response = await fetch(`${UPSTREAM}${path}`, { headers: accept ? { accept } : {} });
      counts.fetched++;
      const got: Kept = { status: response.status, contentType: response.headers.get('content-type') ?? 'application/octet-stream', body: Buffer.from(await response.arrayBuffer()) };
      if (response.ok) {
        writeFileSync(file, got.body);
        writeFileSync(`${file}.json`, JSON.stringify({ status: got.status, contentType: got.contentType }));
      }
      return got;
    }
  };

  const server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const path = request.url ?? '/';
    kept(path, String(request.headers.accept ?? '')).then(
      ({ status, contentType, body }) => {
        counts.served++;
        // Metadata names its tarballs by the public registry's address: here they come from this server.
        const served = contentType.includes('json') ? Buffer.from(body.toString('utf8').replaceAll(`${UPSTREAM}/`, base)) : body;
        response.writeHead(status, { 'content-type': contentType, 'content-length': served.length }).end(served);
      },
      (error: unknown) => response.writeHead(502, { 'content-type': 'text/plain' }).end(`registry proxy: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    counts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
