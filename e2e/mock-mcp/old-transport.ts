// The older HTTP+SSE transport (MCP 2024-11-05) for the mock: GET on the endpoint opens an event stream whose first
// event names where to POST messages; a POST to the endpoint itself is refused with 405, which is how a client
// that tries streamable HTTP first learns to fall back. Built with the SDK's SSEServerTransport.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

const MESSAGES_PATH = '/messages';

export type OldTransportSessions = Map<string, { server: Server; transport: SSEServerTransport }>;

/** Answers one request of the old transport; `makeServer` gives each new stream its own server. */
export async function handleOldTransport(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  sessions: OldTransportSessions,
  makeServer: () => Server,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && url.pathname !== MESSAGES_PATH) {
    const server = makeServer();
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    sessions.set(transport.sessionId, { server, transport });
    res.on('close', () => sessions.delete(transport.sessionId));
    await server.connect(transport);
    return;
  }
  if (req.method === 'POST' && url.pathname === MESSAGES_PATH) {
    const session = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (!session) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
    return session.transport.handlePostMessage(req, res, body);
  }
  res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET' }).end('Method not allowed: this server speaks the HTTP+SSE transport');
}
