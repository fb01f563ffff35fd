// The built app (dist/) on a plain static file server, as GitHub Pages or an S3 bucket would serve it: optionally
// without the COOP/COEP headers, and stoppable, to see what the service worker does when the host is gone.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CROSS_ORIGIN_ISOLATION_HEADERS } from '../src/runtime/cross-origin-isolation';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

export type StaticHost = { url: string; close(): Promise<void> };

/**
 * Serves dist/ on a free port of 127.0.0.1; `isolationHeaders` adds COOP/COEP as a well-configured host does, and
 * `basePath` (like '/team/conch/') puts the app under a folder of the site, as a project page on GitHub Pages is.
 */
export async function startStaticHost(options: { isolationHeaders: boolean; basePath?: string }): Promise<StaticHost> {
  const base = options.basePath ?? '/';
  const server: Server = createServer((request, response) => {
    const requested = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
    if (!requested.startsWith(base)) return void response.writeHead(404).end('not found');
    let path = `/${requested.slice(base.length)}`;
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(DIST, path));
    let size: number;
    try {
      if (!file.startsWith(DIST)) throw new Error('outside');
      size = statSync(file).size;
    } catch {
      return void response.writeHead(404).end('not found');
    }
    const headers: Record<string, string | number> = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': size, 'Cache-Control': 'no-cache' };
    if (options.isolationHeaders) Object.assign(headers, CROSS_ORIGIN_ISOLATION_HEADERS);
    response.writeHead(200, headers);
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${base}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
