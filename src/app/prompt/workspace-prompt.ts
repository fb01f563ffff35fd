// The system prompt for a run, with what the model should know of the workspace: its top-level listing, the
// project's own instructions (../instructions/), both kept for the session by their owners, and the skills on.
import type { AgentTool } from '../../agent/types';
import type { Runtime } from '../../runtime/types';
import type { PromptInstructions } from '../instructions/project-instructions';
import { buildSystemPrompt, type PromptSkill } from './system-prompt';

export type WorkspacePromptInput = {
  runtime: Pick<Runtime, 'kind' | 'workdir'>;
  /** The root's names (folders end with '/'), sorted. */
  listing: string[];
  tools: AgentTool[];
  customInstructions: string;
  date: Date;
  /** One-line news for this run only. */
  notices?: string[];
  instructions?: PromptInstructions;
  skills?: PromptSkill[];
};

/** The system prompt for `tools` in a workspace. */
export function workspaceSystemPrompt(input: WorkspacePromptInput): string {
  const { instructions } = input;
  return buildSystemPrompt({
    runtimeKind: input.runtime.kind,
    workdir: input.runtime.workdir,
    listing: input.listing,
    tools: input.tools.map((t) => ({ name: t.name, description: t.description })),
    date: input.date,
    agentsMd: instructions?.root ? { fileName: instructions.root.path, content: instructions.root.text } : undefined,
    nestedInstructions: instructions?.nested,
    customInstructions: input.customInstructions,
    notices: input.notices,
    skills: input.skills,
  });
}
