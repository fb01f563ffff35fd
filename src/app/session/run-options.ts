// What a run (or a compaction) is given from the person's settings when it starts: the active tools, the system prompt
// built for the workspace, and the provider options.
import type { AgentTool } from '../../agent/types';
import { hasWebTools } from '../../ai/server-tools';
import type { Model, StreamFn, StreamOptions } from '../../ai/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { CompactionCall } from '../compaction/session-compaction.svelte';
import { compactionSettingsOf } from '../compaction/long-session-settings';
import { activeToolNames } from '../policy/policy';
import { workspaceSystemPrompt } from '../prompt/workspace-prompt';
import type { Settings } from '../settings/settings';

/** Everything a run, and the summary calls of its compactions, are given. */
export type RunCall = CompactionCall & { tools: AgentTool[]; streamOptions: Omit<StreamOptions, 'signal'> };

export type RunSources = {
  workspace: Workspace;
  /** All the coding tools for the workspace; the settings choose which are active. */
  tools: AgentTool[];
  streamFn: StreamFn;
  now?: () => Date;
  /** Hears "… Retrying in N s…" while a request is retried. */
  onRetryNotice: (notice: string) => void;
  /** Whether the session has the provider's web tools switched on. */
  webTools?: () => boolean;
};

/** A session's runs' options, made from its settings at each start. */
export class RunOptions {
  constructor(private readonly sources: RunSources) {}

  /** The tools the settings make active (read-only mode keeps only the reading ones). */
  activeTools(settings: Settings): AgentTool[] {
    const active = new Set(activeToolNames(settings.activeTools, settings.approvalMode));
    return this.sources.tools.filter((tool) => active.has(tool.name));
  }

  systemPrompt(tools: AgentTool[], settings: Settings, notices: string[] = []): Promise<string> {
    return workspaceSystemPrompt(this.sources.workspace, tools, settings.customInstructions, this.sources.now?.() ?? new Date(), notices);
  }

  /** The call for `model` under `settings` (`notices`: one-line news for this run only); rejects when the system prompt cannot be built. */
  async callFor(settings: Settings, model: Model, notices: string[] = []): Promise<RunCall> {
    const tools = this.activeTools(settings);
    const systemPrompt = await this.systemPrompt(tools, settings, notices);
    return {
      model,
      streamFn: this.sources.streamFn,
      streamOptions: {
        ...streamOptionsFor(settings, model, this.sources.onRetryNotice),
        ...(this.sources.webTools?.() && hasWebTools(model) ? { webTools: true } : {}),
      },
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
