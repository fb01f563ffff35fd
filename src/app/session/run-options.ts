// What a run (or a compaction) is given from the person's settings when it starts: the active tools, the system prompt
// built for the workspace, and the provider options.
import type { AgentTool } from '../../agent/types';
import { hasWebTools } from '../../ai/server-tools';
import type { Model, StreamFn, StreamOptions } from '../../ai/types';
import type { Workspace } from '../../runtime/workspace/workspace';
import type { CompactionCall } from '../compaction/session-compaction.svelte';
import { compactionSettingsOf } from '../compaction/long-session-settings';
import { ProjectInstructions, type PromptInstructions } from '../instructions/project-instructions';
import { activeToolNames, type McpToolTraits } from '../policy/policy';
import { RootListing } from '../prompt/root-listing';
import { workspaceSystemPrompt } from '../prompt/workspace-prompt';
import { withPlanMode, type PromptSkill } from '../prompt/system-prompt';
import type { Settings } from '../settings/settings';

/** Tools from outside the workspace (the MCP servers' ones), asked for at the start of each run. */
export type ExternalTools = {
  /** The ones active under `settings` (switched on, reviewed, and read-only-hinted in read-only mode). */
  activeTools(settings: Settings): AgentTool[];
  /** The policy's view of the tool called `name`, if it is one of them. */
  toolOf(name: string): McpToolTraits | undefined;
};

/** Everything a run, and the summary calls of its compactions, are given. */
export type RunCall = CompactionCall & {
  tools: AgentTool[];
  streamOptions: Omit<StreamOptions, 'signal'>;
  instructions: ProjectInstructions;
  /** The system prompt as it would be built now: `systemPrompt` again, unless the instructions or the tools changed mid-run. */
  currentSystemPrompt(): Promise<string>;
  /** The active tools as they are now: `tools` again (the same array) unless an MCP server's tool list changed mid-run. */
  currentTools(): AgentTool[];
};

export type RunSources = {
  workspace: Workspace;
  /** All the coding tools for the workspace; the settings choose which are active. */
  tools: AgentTool[];
  /** Tools of the same kind loaded with the first run (the `task` tool), which join `tools` once there. */
  laterTools?: () => AgentTool[];
  streamFn: StreamFn;
  /** The MCP servers' tools, which join the coding tools under the same rule: one that is not active is not found. */
  external?: ExternalTools;
  now?: () => Date;
  /** Hears "… Retrying in N s…" while a request is retried. */
  onRetryNotice: (notice: string) => void;
  /** The skills for the prompt, made ready in the sandbox (none when absent). */
  skills?: () => Promise<PromptSkill[]>;
  /** Whether the session has the provider's web tools switched on. */
  webTools?: () => boolean;
};

/** A session's runs' options, made from its settings at each start. */
export class RunOptions {
  /** The repo's instruction files, kept for the session: in every system prompt, and attached to tool results. */
  readonly instructions: ProjectInstructions;

  private readonly listing: RootListing;

  constructor(private readonly sources: RunSources) {
    this.instructions = new ProjectInstructions(sources.workspace);
    this.listing = new RootListing(sources.workspace);
  }

  /** The tools the settings make active (read-only and plan mode keep only the reading ones and todo), then the active MCP tools. */
  activeTools(settings: Settings): AgentTool[] {
    const active = new Set(activeToolNames(settings.activeTools, settings.approvalMode));
    const later = this.sources.laterTools?.() ?? [];
    const coding = (later.length === 0 ? this.sources.tools : [...this.sources.tools, ...later]).filter((tool) => active.has(tool.name));
    const external = this.sources.external?.activeTools(settings) ?? [];
    return external.length === 0 ? coding : [...coding, ...external.filter((t) => !coding.some((c) => c.name === t.name))];
  }

  async systemPrompt(tools: AgentTool[], settings: Settings, notices: string[] = []): Promise<string> {
    return (await this.promptWithInstructions(tools, settings, notices)).prompt;
  }

  /** The call for `model` under `settings` (`notices`: one-line news for this run only); rejects when the system prompt cannot be built. */
  async callFor(settings: Settings, model: Model, notices: string[] = []): Promise<RunCall> {
    const tools = this.activeTools(settings);
    let built = await this.promptWithInstructions(tools, settings, notices);
    let current = tools;
    let builtFor = tools;
    const systemPrompt = built.prompt;
    const currentTools = () => {
      const now = this.activeTools(settings);
      if (!sameTools(now, current)) current = now;
      return current;
    };
    const currentSystemPrompt = async () => {
      const instructions = await this.instructions.forPrompt();
      if (builtFor !== current || !samePromptInstructions(instructions, built.instructions)) {
        builtFor = current;
        built = await this.promptWithInstructions(current, settings, notices);
      }
      return built.prompt;
    };
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
      instructions: this.instructions,
      currentSystemPrompt,
      currentTools,
    };
  }

  private async promptWithInstructions(tools: AgentTool[], settings: Settings, notices: string[]): Promise<{ prompt: string; instructions: PromptInstructions }> {
    const [listing, instructions, skills] = await Promise.all([this.listing.current(), this.instructions.forPrompt(), this.sources.skills?.() ?? []]);
    const date = this.sources.now?.() ?? new Date();
    const { workspace } = this.sources;
    const prompt = workspaceSystemPrompt({ runtime: workspace, listing, tools, customInstructions: settings.customInstructions, date, notices, instructions, skills });
    return { prompt: withPlanMode(prompt, settings.approvalMode === 'plan'), instructions };
  }

  /** The session closed: stops following the workspace. */
  dispose(): void {
    this.instructions.dispose();
    this.listing.dispose();
  }
}

function sameTools(a: AgentTool[], b: AgentTool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}

function samePromptInstructions(a: PromptInstructions, b: PromptInstructions): boolean {
  return a.root?.path === b.root?.path && a.root?.text === b.root?.text && a.nested.join('\n') === b.nested.join('\n');
}

function streamOptionsFor(settings: Settings, model: Model, onRetryNotice: (notice: string) => void): Omit<StreamOptions, 'signal'> {
  return {
    apiKey: settings.apiKey || undefined,
    maxTokens: settings.maxTokens > 0 ? settings.maxTokens : undefined,
    thinking: model.reasoning ? settings.thinking : undefined,
    onRetry: ({ delayMs, reason }) => onRetryNotice(`${reason} Retrying in ${Math.max(1, Math.round(delayMs / 1000))} s…`),
  };
}
