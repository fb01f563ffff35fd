// The MCP client's entry, in its own module so the SDK and the validator load on first use (on-demand.ts imports
// it when a server is first connected).
import { McpClientConnection } from './connection';
import type { McpConnection, McpConnectOptions, McpServerConfig } from './types';

/** Connects to `config`'s server and lists its tools and prompts; the outcome is the connection's state (never throws). */
export async function connectMcpServer(config: McpServerConfig, options: McpConnectOptions): Promise<McpConnection> {
  const connection = new McpClientConnection(config, options);
  await connection.open();
  return connection;
}
