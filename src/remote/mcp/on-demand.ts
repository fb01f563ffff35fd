// The MCP client as the remote layer's surface offers it: the same entry as connect.ts, which it imports only when
// first called, so neither the SDK nor the validator is in the page's initial JavaScript.
import type { McpConnection, McpConnectOptions, McpServerConfig } from './types';

/** Connects to `config`'s server (loading the MCP client on first use); the outcome is the connection's state. */
export async function connectMcpServer(config: McpServerConfig, options: McpConnectOptions): Promise<McpConnection> {
  const { connectMcpServer: connect } = await import('./connect');
  return connect(config, options);
}
