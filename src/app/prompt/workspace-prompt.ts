// The system prompt for a run, with what the model should know of the workspace: its top-level listing, read from
// the sandbox when the run starts, and the project's own instructions (../instructions/).
import type { AgentTool } from '../../agent/types';
import type { Runtime } from '../../runtime/types';
import type { PromptInstructions } from '../instructions/project-instructions';
import { buildSystemPrompt } from './system-prompt';

const NO_INSTRUCTIONS: PromptInstructions = { root: null, nested: [] };

/** The system prompt for `tools` in `runtime`'s workspace (with this run's `notices`); an unreadable workspace gives an empty listing. */
export async function workspaceSystemPrompt(
  runtime: Runtime,
  tools: AgentTool[],
  customInstructions: string,
  date: Date,
  notices: string[] = [],
  instructions: PromptInstructions = NO_INSTRUCTIONS,
): Promise<string> {
  let listing: string[] = [];
  try {
    const entries = await runtime.readdir(runtime.workdir);
    listing = entries
      .map((e) => (e.type === 'dir' ? `${e.name}/` : e.name))
      .sort((a, b) => a.localeCompare(b));
  } catch {
    listing = [];
  }
  return buildSystemPrompt({
    runtimeKind: runtime.kind,
    workdir: runtime.workdir,
    listing,
    tools: tools.map((t) => ({ name: t.name, description: t.description })),
    date,
    agentsMd: instructions.root ? { fileName: instructions.root.path, content: instructions.root.text } : undefined,
    nestedInstructions: instructions.nested,
    customInstructions,
    notices,
  });
}
