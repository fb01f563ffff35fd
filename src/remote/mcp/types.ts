// The contract between the MCP client (src/remote/mcp) and the app: a server as the person configured it, a live
// connection to it with its state, its tools as the loop's AgentTools (named mcp__<server>__<tool>), and its prompts.
// Everything a server sends is untrusted input: names, descriptions, schemas and results are checked and cut here.
import type { AgentTool } from '../../agent/types';

/** A server as the person set it up in Settings → MCP servers (kept in the settings store, like API keys). */
export type McpServerConfig = {
  /** Stable id (made when added); the registry name uses `name`. */
  id: string;
  /** The person's name for it; sanitised into tool names as mcp__<name>__<tool>. */
  name: string;
  /** The streamable HTTP endpoint (the older HTTP+SSE transport is the fallback). */
  url: string;
  /** Sent with every request (e.g. Authorization: Bearer …); never in exports or session files. */
  headers: { name: string; value: string }[];
  connectOnStart: boolean;
};

export type McpServerState =
  | { state: 'connecting' }
  | { state: 'connected'; tools: number }
  | { state: 'needs-auth' }
  | { state: 'failed'; reason: string };

/** One of a server's tools as the person reviews it before it is offered. */
export type McpToolInfo = {
  /** The registry name: mcp__<server>__<tool>, [a-zA-Z0-9_-], at most 64 characters, unique. */
  name: string;
  /** The server's own name for it (what tools/call is sent). */
  serverName: string;
  title?: string;
  /** The description as the server sent it (shown to the person in full, as text). */
  description: string;
  /** What the model is told: the description cut at 2 KB; `cut` says whether it was. */
  modelDescription: string;
  cut: boolean;
  /** annotations.readOnlyHint === true: orders the batch as read-only (it never grants permission). */
  readOnlyHint: boolean;
  /** Why the tool cannot be offered (a schema the validator cannot compile, …); absent when usable. */
  unavailable?: string;
};

export type McpPromptInfo = {
  /** The server's prompt name; the composer offers it as /mcp:<server>:<prompt>. */
  name: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
};

/** A live connection to one server. */
export interface McpConnection {
  readonly config: McpServerConfig;
  readonly state: McpServerState;
  /** The server's tools as last listed (refreshed on notifications/tools/list_changed). */
  tools(): McpToolInfo[];
  /** The usable tools as the loop's AgentTools; a call validates its arguments against the server's JSON Schema. */
  agentTools(): AgentTool[];
  prompts(): McpPromptInfo[];
  /** The prompt's messages as text for the composer (prompts/get). */
  getPrompt(name: string, args: Record<string, string>): Promise<string>;
  /** Hears state, tool-list and prompt-list changes. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

/** What connecting needs from the page: its fetch, and the OAuth sign-in when the server asks for one. */
export type McpConnectOptions = {
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** The tool call timeout (ms); a slower server gets an error result, the session goes on. */
  toolTimeoutMs?: number;
  /** Where a tool's full output is spilled when truncated (a workspace-relative path is returned to the model). */
  spill?: (toolName: string, text: string) => Promise<string | undefined>;
};
