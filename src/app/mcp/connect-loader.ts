// The MCP client (the SDK and the schema validator with it) loads on first use, never with the page. It is found
// through Vite's glob so that this layer builds on its own contract (../../remote/mcp/types.ts) even where the
// client is not in the tree: connecting then says so instead of failing the build.
import type { McpConnection, McpConnectOptions, McpServerConfig } from '../../remote/mcp/types';

export type ConnectMcpServer = (config: McpServerConfig, options: McpConnectOptions) => Promise<McpConnection>;

type ConnectModule = { connectMcpServer: ConnectMcpServer };

const clients = import.meta.glob<ConnectModule>('../../remote/mcp/connect.ts');

/** Connects through the lazily loaded MCP client. */
export const connectMcpServer: ConnectMcpServer = async (config, options) => {
  const load = Object.values(clients)[0];
  if (!load) throw new Error('This build of Conch has no MCP client. Use a build that includes src/remote/mcp/connect.ts.');
  const { connectMcpServer: connect } = await load();
  return connect(config, options);
};
