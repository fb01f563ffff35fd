// The system prompt for a run, with what the model should know of the workspace: its top-level listing and the
// project's own instructions (AGENTS.md, or CLAUDE.md), read from the sandbox when the run starts.
import type { AgentTool } from '../../agent/types';
import type { Runtime } from '../../runtime/types';
import { buildSystemPrompt, type PromptSkill } from './system-prompt';

/** The system prompt for `tools` in `runtime`'s workspace (with this run's `notices` and `skills`); an unreadable workspace gives an empty listing. */
export async function workspaceSystemPrompt(runtime: Runtime, tools: AgentTool[], customInstructions: string, date: Date, notices: string[] = [], skills: PromptSkill[] = []): Promise<string> {
  let listing: string[] = [];
  try {
    const entries = await runtime.readdir(runtime.workdir);
    listing = entries
      .map((e) => (e.type === 'dir' ? `${e.name}/` : e.name))
      .sort((a, b) => a.localeCompare(b));
  } catch {
    listing = [];
  }
  let agentsMd: { fileName: string; content: string } | undefined;
  for (const fileName of ['AGENTS.md', 'CLAUDE.md']) {
    if (!listing.includes(fileName)) continue;
    try {
      agentsMd = { fileName, content: new TextDecoder().decode(await runtime.readFile(fileName)) };
      break;
    } catch {
      // unreadable: leave it out rather than fail the run
    }
  }
  return buildSystemPrompt({
    runtimeKind: runtime.kind,
    workdir: runtime.workdir,
    listing,
    tools: tools.map((t) => ({ name: t.name, description: t.description })),
    date,
    agentsMd,
    customInstructions,
    notices,
    skills,
  });
}
