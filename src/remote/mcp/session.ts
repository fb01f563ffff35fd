// One initialised MCP session with a server: the SDK's Client over streamable HTTP, or over the older HTTP+SSE
// transport when the server answers the streamable POST with a 4xx (what the spec's backwards compatibility says to
// do). Progress and list-changed notifications go to the caller's handlers. Loaded only with connect.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ProgressNotificationSchema, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker-provider.js';
import type { McpServerConfig } from './types';

export type SessionHandlers = {
  onProgress(token: string | number, progress: { progress: number; total?: number; message?: string }): void;
  onToolsChanged(): void;
  onPromptsChanged(): void;
};

export type SessionOptions = {
  fetch: typeof fetch;
  authProvider?: OAuthClientProvider;
  timeoutMs: number;
  signal?: AbortSignal;
};

export type Session = { client: Client; transport: Transport; kind: 'streamable-http' | 'sse' };

/** Connects and initialises; throws the transport's error when neither transport gets through. */
export async function openSession(config: McpServerConfig, options: SessionOptions, handlers: SessionHandlers): Promise<Session> {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: Object.fromEntries(config.headers.map((h) => [h.name, h.value])) };
  const common = { fetch: options.fetch, requestInit, authProvider: options.authProvider };
  const streamable = new StreamableHTTPClientTransport(url, { ...common, reconnectionOptions: NO_RECONNECTS });
  try {
    return await initialise(streamable, 'streamable-http', options, handlers);
  } catch (error) {
    if (!isOldTransportSign(error)) throw error;
  }
  const sse = new SSEClientTransport(url, { ...common, eventSourceInit: { fetch: withHeaders(options.fetch, requestInit) } });
  return initialise(sse, 'sse', options, handlers);
}

// A dropped stream is not re-opened behind the caller's back: the connection re-initialises when a call needs it.
const NO_RECONNECTS = { maxReconnectionDelay: 1000, initialReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1, maxRetries: 0 };

async function initialise(transport: Transport, kind: Session['kind'], options: SessionOptions, handlers: SessionHandlers): Promise<Session> {
  const client = new Client(
    { name: 'conch', version: '0.1.0' },
    { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  // Replaces the SDK's own progress routing: calls carry Conch's tokens (see connection.ts), so it routes by them.
  client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
    const { progressToken, progress, total, message } = notification.params;
    handlers.onProgress(progressToken, { progress, total, message });
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => handlers.onToolsChanged());
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => handlers.onPromptsChanged());
  try {
    await client.connect(transport, { timeout: options.timeoutMs, signal: options.signal });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, transport, kind };
}

// A server of the older transport answers a POST to its SSE endpoint with 404 or 405 (or another 4xx but 401).
function isOldTransportSign(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 400 && code < 500 && code !== 401 && code !== 403;
}

function withHeaders(fetchFn: typeof fetch, requestInit: RequestInit): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    new Headers(requestInit.headers).forEach((value, name) => headers.set(name, value));
    return fetchFn(input, { ...init, headers });
  };
}
