// What the loopback mocks (the LLM providers, GitHub, GitLab) share about serving HTTP from Node.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** A request's whole body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** Starts `server` on a free port of 127.0.0.1, keeping its sockets in `sockets` so a close can end them. */
export function listen(server: Server, sockets: Set<Socket>): Promise<Server> {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** A mock's latency: resolves after `ms` (at once for 0). */
export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
