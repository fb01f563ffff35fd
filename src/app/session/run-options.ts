// What a run (or a compaction) is given from the person's settings when it starts: the active tools, the system prompt
// built for the workspace, and the provider options.
import type { AgentTool } from '../../agent/types';
import type { Model, StreamFn, StreamOptions } from '../../ai/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { CompactionCall } from '../compaction/session-compaction.svelte';
import { compactionSettingsOf } from '../compaction/long-session-settings';
import { activeToolNames, type McpToolTraits } from '../policy/policy';
import { workspaceSystemPrompt } from '../prompt/workspace-prompt';
import type { PromptSkill } from '../prompt/system-prompt';
import type { Settings } from '../settings/settings';

/** Tools from outside the workspace (the MCP servers' ones), asked for at the start of each run. */
export type ExternalTools = {
  /** The ones active under `settings` (switched on, reviewed, and read-only-hinted in read-only mode). */
  activeTools(settings: Settings): AgentTool[];
  /** The policy's view of the tool called `name`, if it is one of them. */
  toolOf(name: string): McpToolTraits | undefined;
};

/** Everything a run, and the summary calls of its compactions, are given. */
export type RunCall = CompactionCall & { tools: AgentTool[]; streamOptions: Omit<StreamOptions, 'signal'> };

export type RunSources = {
  workspace: Workspace;
  /** All the coding tools for the workspace; the settings choose which are active. */
  tools: AgentTool[];
  streamFn: StreamFn;
  /** The MCP servers' tools, which join the coding tools under the same rule: one that is not active is not found. */
  external?: ExternalTools;
  now?: () => Date;
  /** Hears "… Retrying in N s…" while a request is retried. */
  onRetryNotice: (notice: string) => void;
  /** The skills for the prompt, made ready in the sandbox (none when absent). */
  skills?: () => Promise<PromptSkill[]>;
};

/** A session's runs' options, made from its settings at each start. */
export class RunOptions {
  constructor(private readonly sources: RunSources) {}

  /** The tools the settings make active (read-only mode keeps only the reading ones), then the active MCP tools. */
  activeTools(settings: Settings): AgentTool[] {
    const active = new Set(activeToolNames(settings.activeTools, settings.approvalMode));
    const coding = this.sources.tools.filter((tool) => active.has(tool.name));
    const external = this.sources.external?.activeTools(settings) ?? [];
    return external.length === 0 ? coding : [...coding, ...external.filter((t) => !coding.some((c) => c.name === t.name))];
  }

  async systemPrompt(tools: AgentTool[], settings: Settings, notices: string[] = []): Promise<string> {
    const skills = (await this.sources.skills?.()) ?? [];
    return workspaceSystemPrompt(this.sources.workspace, tools, settings.customInstructions, this.sources.now?.() ?? new Date(), notices, skills);
  }

  /** The call for `model` under `settings` (`notices`: one-line news for this run only); rejects when the system prompt cannot be built. */
  async callFor(settings: Settings, model: Model, notices: string[] = []): Promise<RunCall> {
    const tools = this.activeTools(settings);
    const systemPrompt = await this.systemPrompt(tools, settings, notices);
    return {
      model,
      streamFn: this.sources.streamFn,
      streamOptions: streamOptionsFor(settings, model, this.sources.onRetryNotice),
      settings: compactionSettingsOf(settings.compaction),
      systemPrompt,
      tools,
    };
  }
}

function streamOptionsFor(settings: Settings, model: Model, onRetryNotice: (notice: string) => void): Omit<StreamOptions, 'signal'> {
  return {
    apiKey: settings.apiKey || undefined,
    maxTokens: settings.maxTokens > 0 ? settings.maxTokens : undefined,
    thinking: model.reasoning ? settings.thinking : undefined,
    onRetry: ({ delayMs, reason }) => onRetryNotice(`${reason} Retrying in ${Math.max(1, Math.round(delayMs / 1000))} s…`),
  };
}
