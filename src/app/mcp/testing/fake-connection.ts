// A stand-in for the MCP client's connection, for tests of the app's side: tools, prompts and state set by the
// test, calls recorded, changes told to the listeners as the real client would on notifications.
import { Type } from '@sinclair/typebox';
import type { AgentTool } from '../../../agent/types';
import type { McpConnection, McpPromptInfo, McpServerConfig, McpServerState, McpToolInfo } from '../../../remote/mcp/types';

export type FakeTool = { name: string; description?: string; readOnlyHint?: boolean; unavailable?: string };

export class FakeMcpConnection implements McpConnection {
  state: McpServerState = { state: 'connected', tools: 0 };
  closed = false;
  readonly calls: { name: string; args: unknown }[] = [];
  private list: McpToolInfo[] = [];
  private promptList: McpPromptInfo[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly config: McpServerConfig,
    tools: FakeTool[] = [],
  ) {
    this.setTools(tools);
  }

  /** Replaces the tool list and tells the listeners (notifications/tools/list_changed). */
  setTools(tools: FakeTool[]): void {
    this.list = tools.map((t) => {
      const description = t.description ?? `${t.name} things`;
      return {
        name: `mcp__${this.config.name}__${t.name}`,
        serverName: t.name,
        description,
        modelDescription: description.slice(0, 2048),
        cut: description.length > 2048,
        readOnlyHint: t.readOnlyHint ?? false,
        ...(t.unavailable ? { unavailable: t.unavailable } : {}),
      };
    });
    this.offered = undefined;
    this.state = { state: 'connected', tools: this.list.length };
    this.changed();
  }

  setPrompts(prompts: McpPromptInfo[]): void {
    this.promptList = prompts;
    this.changed();
  }

  setState(state: McpServerState): void {
    this.state = state;
    this.changed();
  }

  tools(): McpToolInfo[] {
    return this.list;
  }

  // Made once per list, as the real connection does: a run sees the same tools until the list changes.
  private offered: AgentTool[] | undefined;

  agentTools(): AgentTool[] {
    return (this.offered ??= this.list
      .filter((t) => !t.unavailable)
      .map((t) => ({
        name: t.name,
        label: t.serverName,
        description: t.modelDescription,
        parameters: Type.Object({}, { additionalProperties: true }),
        execute: async (_id, args) => {
          this.calls.push({ name: t.serverName, args });
          return { content: [{ type: 'text' as const, text: `${t.serverName} done` }] };
        },
      })));
  }

  prompts(): McpPromptInfo[] {
    return this.promptList;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    return `${name}: ${JSON.stringify(args)}`;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
