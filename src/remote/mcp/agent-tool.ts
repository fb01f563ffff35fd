// A server's tool as the loop's AgentTool. Its effects order the batch: a read-only hint makes it a reader that
// touches no workspace path (it overlaps other reads); every other MCP tool is ordered like bash, a barrier. The hint
// comes from an untrusted server, so it orders calls and never grants permission (that is the app's policy).
import type { AgentTool, AgentToolResult, ToolEffects } from '../../agent/types';
import type { CompiledSchema } from './input-schema';
import type { McpToolInfo } from './types';

export interface ToolCaller {
  readonly config: { name: string };
  call(tool: McpToolInfo, args: unknown, signal?: AbortSignal, onUpdate?: (partial: AgentToolResult) => void): Promise<AgentToolResult>;
}

const READ_ONLY: ToolEffects = { kind: 'read', paths: [] };
const LIKE_BASH: ToolEffects = { kind: 'exec', paths: [] };

/** The AgentTool calling `info` through `caller`; arguments are checked by the schema's own validation. */
export function mcpAgentTool(info: McpToolInfo, schema: CompiledSchema, caller: ToolCaller): AgentTool {
  const effects = info.readOnlyHint ? READ_ONLY : LIKE_BASH;
  return {
    name: info.name,
    label: `${caller.config.name}: ${info.title ?? info.serverName}`,
    description: info.modelDescription,
    parameters: schema.parameters,
    effects: () => ({ kind: effects.kind, paths: [] }),
    execute: (_toolCallId, args, signal, onUpdate) => caller.call(info, args, signal, onUpdate),
  };
}
