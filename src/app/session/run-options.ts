// What a run (or a compaction) is given from the person's settings: the active tools and the provider options.
import type { AgentTool } from '../../agent/types';
import type { Model, StreamOptions } from '../../ai/types';
import { activeToolNames } from '../policy/policy';
import type { Settings } from '../settings/settings';

/** The tools of `all` the settings make active (read-only mode keeps only the reading ones). */
export function activeToolsFor(all: readonly AgentTool[], settings: Settings): AgentTool[] {
  const active = new Set(activeToolNames(settings.activeTools, settings.approvalMode));
  return all.filter((tool) => active.has(tool.name));
}

/** The provider options for `model`; `onRetryNotice` hears "… Retrying in N s…" while a request is retried. */
export function streamOptionsFor(settings: Settings, model: Model, onRetryNotice: (notice: string) => void): Omit<StreamOptions, 'signal'> {
  return {
    apiKey: settings.apiKey || undefined,
    maxTokens: settings.maxTokens > 0 ? settings.maxTokens : undefined,
    thinking: model.reasoning ? settings.thinking : undefined,
    onRetry: ({ delayMs, reason }) => onRetryNotice(`${reason} Retrying in ${Math.max(1, Math.round(delayMs / 1000))} s…`),
  };
}
