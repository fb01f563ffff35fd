// A loopback host of session files for the `?session=` link flows, on its own port (so another origin than the app):
// /cors/<name> answers with Access-Control-Allow-Origin as a gist's raw host does, /plain/<name> without it (the
// browser then hides the answer from the page), and /slow/<name> with CORS but in 64 KB pieces 120 ms apart, so a
// download lasts long enough to see its progress and cancel it. HEAD answers with the size. Every request is logged.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { listen } from './loopback-http';

export type SessionFileHost = {
  url: string;
  /** Puts a file at /<route>/<name>. */
  put(name: string, data: Uint8Array): void;
  /** Method and path of every request so far. */
  requests: string[];
  /** Bytes of /slow/ answers written so far. */
  slowBytesSent(): number;
  close(): Promise<void>;
};

const SLOW_PIECE = 64 * 1024;
const SLOW_PAUSE_MS = 120;

/** Starts the host on a free port of 127.0.0.1. */
export async function startSessionFileHost(): Promise<SessionFileHost> {
  const files = new Map<string, Uint8Array>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let slowSent = 0;
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://host').pathname;
    requests.push(`${request.method} ${path}`);
    const [, route, name] = path.split('/');
    const data = files.get(decodeURIComponent(name ?? ''));
    const cors = route === 'cors' || route === 'slow' ? { 'Access-Control-Allow-Origin': '*' } : {};
    if (!data || !['cors', 'plain', 'slow'].includes(route)) return void response.writeHead(404, cors).end('not found');
    response.writeHead(200, { ...cors, 'Content-Type': 'application/zip', 'Content-Length': data.length, 'Cache-Control': 'no-store' });
    if (request.method === 'HEAD') return void response.end();
    if (route !== 'slow') return void response.end(data);
    let at = 0;
    const next = () => {
      if (response.destroyed) return;
      if (at >= data.length) return void response.end();
      const piece = data.subarray(at, at + SLOW_PIECE);
      at += piece.length;
      slowSent += piece.length;
      response.write(piece);
      setTimeout(next, SLOW_PAUSE_MS);
    };
    next();
  });
  await listen(server, sockets);
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    put: (name, data) => void files.set(name, data),
    requests,
    slowBytesSent: () => slowSent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
