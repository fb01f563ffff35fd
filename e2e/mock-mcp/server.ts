// A loopback MCP server for tests, built with the SDK's server side: its low-level Server (so tools are listed with
// raw JSON Schemas, hostile ones included) over StreamableHTTPServerTransport, one per session, on Node's http. It
// sends CORS headers (allowing any origin, exposing Mcp-Session-Id) unless made without them, and can be killed and
// restarted on its port, have its sessions expired, and change its tool list (sending list_changed). Its hostile
// tools that no SDK server would send are answered here, below the transport. `{ oauth }` puts an authorization
// server in front of it (oauth.ts): the MCP endpoint answers 401 until a valid bearer token is sent.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema, GetPromptRequestSchema, ListPromptsRequestSchema, ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { listen, readBody } from '../loopback-http';
import { mockOAuth, type MockOAuth, type MockOAuthOptions } from './oauth';
import { handleOldTransport, type OldTransportSessions } from './old-transport';
import { hostileTools, STANDARD_TOOLS, type MockTool } from './tools';

export type MockMcpOptions = {
  /** Send CORS headers (default true); false is a server that does not allow browser clients. */
  cors?: boolean;
  /** The tools listed (default STANDARD_TOOLS); `hostile` adds section 3's. */
  tools?: MockTool[];
  hostile?: boolean;
  /** Answers every request with this status (e.g. 401 for a server that needs sign-in). */
  status?: number;
  /** How many tools one tools/list page holds (default: all on one page). */
  pageSize?: number;
  /** An authorization server in the same mock; the MCP endpoint then needs one of its bearer tokens. */
  oauth?: MockOAuthOptions | true;
  /** 'sse': a server of the older HTTP+SSE transport only (old-transport.ts); default streamable HTTP. */
  transport?: 'streamable-http' | 'sse';
};

export type MockMcpCall = { tool: string; args: unknown; cancelled: boolean };

export type MockMcp = {
  url: string;
  calls: MockMcpCall[];
  /** Milliseconds each tools/call handler took on the server (the bench's "server's own time"). */
  handlerMs: number[];
  /** The authorization server, when made with `oauth` (its records and switches). */
  oauth?: MockOAuth;
  /** Replaces the tool list and tells every session (notifications/tools/list_changed). */
  setTools(tools: MockTool[]): Promise<void>;
  /** Forgets every session: the next request with an old Mcp-Session-Id gets 404. */
  expireSessions(): void;
  kill(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
};

type Session = { server: Server; transport: StreamableHTTPServerTransport };

const PROMPTS = [{ name: 'review', description: 'Review a file.', arguments: [{ name: 'file', description: 'The file', required: true }] }];

/** Starts the mock on a free loopback port. */
export async function startMockMcp(options: MockMcpOptions = {}): Promise<MockMcp> {
  let tools = [...(options.tools ?? STANDARD_TOOLS), ...(options.hostile ? hostileTools() : [])];
  const sessions = new Map<string, Session>();
  const oldSessions: OldTransportSessions = new Map();
  const calls: MockMcpCall[] = [];
  const handlerMs: number[] = [];
  const sockets = new Set<Socket>();
  let oauth: MockOAuth | undefined;

  const makeServer = (): Server => {
    const server = new Server({ name: 'mock-mcp', version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      const start = Number(request.params?.cursor ?? 0);
      const size = options.pageSize ?? tools.length;
      const page = tools.slice(start, start + size).map(({ run: _run, ...listed }) => listed);
      const next = start + size < tools.length ? { nextCursor: String(start + size) } : {};
      return { tools: page, ...next } as never;
    });
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const started = performance.now();
      const call: MockMcpCall = { tool: request.params.name, args: request.params.arguments, cancelled: false };
      calls.push(call);
      extra.signal.addEventListener('abort', () => (call.cancelled = true), { once: true });
      const tool = tools.find((t) => t.name === request.params.name);
      if (!tool?.run) return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
      const token = request.params._meta?.progressToken;
      const answer = await tool.run(request.params.arguments ?? {}, {
        signal: extra.signal,
        progress: async (progress, total, message) => {
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } });
        },
      });
      handlerMs.push(performance.now() - started);
      return answer as never;
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
    server.setRequestHandler(GetPromptRequestSchema, async (request) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Please review ${request.params.arguments?.file ?? 'the file'}.` } }],
    }));
    return server;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.cors !== false) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
      res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (options.status) return void res.writeHead(options.status, { 'content-type': 'text/plain' }).end('mock status');
    if (oauth && (await oauth.handle(req, res, new URL(req.url ?? '/', 'http://127.0.0.1')))) return;
    if (oauth && !oauth.authorized(req)) return oauth.challenge(res);
    const body = req.method === 'POST' ? parseJson(await readBody(req)) : undefined;
    if (options.hostile && answerHostile(body, res)) return;
    if (options.transport === 'sse') return handleOldTransport(req, res, body, oldSessions, makeServer);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || (body as { method?: unknown } | undefined)?.method !== 'initialize') {
      return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'No session: initialize first' } }));
    }
    const server = makeServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  let http: HttpServer = await listen(createHttp(handle), sockets);
  const port = (http.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  if (options.oauth) oauth = mockOAuth(url, options.oauth === true ? {} : options.oauth);
  const forgetSessions = () => {
    for (const session of [...sessions.values(), ...oldSessions.values()]) void session.server.close().catch(() => undefined);
    sessions.clear();
    oldSessions.clear();
  };
  const kill = async () => {
    forgetSessions();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return {
    url,
    calls,
    handlerMs,
    oauth,
    async setTools(next) {
      tools = next;
      await Promise.all([...sessions.values(), ...oldSessions.values()].map((s) => s.server.sendToolListChanged().catch(() => undefined)));
    },
    expireSessions: forgetSessions,
    kill,
    async restart() {
      const server = createHttp(handle);
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
      http = server;
    },
    close: kill,
  };
}

function createHttp(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): HttpServer {
  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// The answers no SDK server would give: a stream that never ends, a body that is not JSON, JSON that is not
// JSON-RPC, and an event stream with a bad event. True when it answered.
function answerHostile(body: unknown, res: ServerResponse): boolean {
  const message = body as { id?: unknown; method?: unknown; params?: { name?: unknown } } | undefined;
  if (message?.method !== 'tools/call') return false;
  switch (message.params?.name) {
    case 'hang':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': still working\n\n');
      return true;
    case 'not_json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html>oops</html>');
      return true;
    case 'not_json_rpc':
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ hello: 'world', id: message.id }));
      return true;
    case 'bad_event':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message\ndata: {not json\n\n');
      return true;
    default:
      return false;
  }
}
