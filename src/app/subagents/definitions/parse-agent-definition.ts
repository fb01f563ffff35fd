// One subagent definition file read into an AgentDefinition, or into an InvalidAgentDefinition with the reason a
// person can act on. Claude Code's files use its tool names (Read, Glob, Bash…): they are read as Conch's own, so a
// repo's .claude/agents/ works unchanged where Conch has the tool.
import { CODING_TOOL_NAMES, isCodingToolName, type CodingToolName } from '../../../tools/catalog';

/** The tools a definition may give its subagent: every coding tool but `task` (a subagent cannot start subagents). */
const SUBAGENT_TOOLS: readonly CodingToolName[] = CODING_TOOL_NAMES.filter((name) => name !== 'task');
import { readFrontMatter } from '../../conventions/front-matter';
import type { AgentDefinition, AgentDefinitionSource, InvalidAgentDefinition } from './agent-definition';

export type ParsedAgentDefinition = { ok: true; definition: AgentDefinition } | { ok: false; invalid: InvalidAgentDefinition };

/** The built-in `agent` values of the task tool: a definition may not take them. */
export const BUILT_IN_AGENTS = ['explore', 'worker', 'apply'] as const;
export const MAX_AGENT_NAME = 64;
export const MAX_AGENT_DESCRIPTION = 1024;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Claude Code's tool names, and the ones Conch has under another name. */
const TOOL_ALIASES: Record<string, string> = { glob: 'find', multiedit: 'edit', todowrite: 'todo', todoread: 'todo' };

/** The definition in `text`, the file at `path`. */
export function parseAgentDefinition(input: { path: string; text: string; source: AgentDefinitionSource }): ParsedAgentDefinition {
  const { path, source } = input;
  const { data, body, error } = readFrontMatter(input.text);
  const named = typeof data.name === 'string' && data.name.trim() !== '' ? data.name.trim() : undefined;
  const invalid = (reason: string): ParsedAgentDefinition => ({ ok: false, invalid: { path, ...(named ? { name: named } : {}), reason, source } });
  if (error) return invalid(`${fileName(path)}: ${error}.`);
  if (Object.keys(data).length === 0) return invalid('It has no front matter: start the file with `---`, then `name:`, `description:` and `tools:` lines, then `---`.');
  const problem = nameProblem(data.name) ?? descriptionProblem(data.description);
  if (problem) return invalid(problem);
  const tools = readTools(data.tools);
  if (typeof tools === 'string') return invalid(tools);
  if (data.model !== undefined && data.model !== null && (typeof data.model !== 'string' || data.model.trim() === '')) {
    return invalid('`model` must be a model id (text), or left out for the session’s model.');
  }
  const prompt = body.trim();
  if (prompt === '') return invalid('Its body is empty: the Markdown after the front matter is the subagent’s system prompt.');
  const model = typeof data.model === 'string' && data.model.trim() !== 'inherit' ? data.model.trim() : undefined;
  return {
    ok: true,
    definition: { name: named!, description: (data.description as string).trim(), tools, ...(model ? { model } : {}), prompt, path, source },
  };
}

function fileName(path: string): string {
  return path.split('/').pop() ?? path;
}

function nameProblem(name: unknown): string | undefined {
  if (name === undefined || name === null || (typeof name === 'string' && name.trim() === '')) return 'It has no `name` in its front matter.';
  if (typeof name !== 'string') return '`name` must be text.';
  const trimmed = name.trim();
  if (trimmed.length > MAX_AGENT_NAME) return `\`name\` is ${trimmed.length} characters long; at most ${MAX_AGENT_NAME} are allowed.`;
  if (!NAME_PATTERN.test(trimmed)) return `\`name\` "${trimmed}" may hold only lowercase letters, digits and single hyphens (e.g. "code-reviewer").`;
  if ((BUILT_IN_AGENTS as readonly string[]).includes(trimmed)) return `\`name\` "${trimmed}" is a built-in agent (${BUILT_IN_AGENTS.join(', ')}): choose another name.`;
  return undefined;
}

function descriptionProblem(description: unknown): string | undefined {
  if (description === undefined || description === null || (typeof description === 'string' && description.trim() === '')) {
    return 'It has no `description` in its front matter: say what the subagent does and when to use it.';
  }
  if (typeof description !== 'string') return '`description` must be text.';
  if (description.trim().length > MAX_AGENT_DESCRIPTION) return `\`description\` is ${description.trim().length} characters long; at most ${MAX_AGENT_DESCRIPTION} are allowed.`;
  return undefined;
}

/** `tools` as a YAML list or a comma-separated line, in Conch's names; left out, every coding tool. A string is the problem. */
function readTools(raw: unknown): string[] | string {
  if (raw === undefined || raw === null) return [...SUBAGENT_TOOLS];
  const listed = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : null;
  if (!listed || listed.some((item) => typeof item !== 'string')) return '`tools` must be a list of tool names (`[read, grep]`) or a comma-separated line (`read, grep`).';
  const names = (listed as string[]).map((item) => item.trim()).filter((item) => item !== '');
  if (names.length === 0) return '`tools` lists no tool: name the tools it may use, or leave `tools` out to give it all of them.';
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const tool = toolName(name);
    if (tool === undefined) unknown.push(name);
    else if (!tools.includes(tool)) tools.push(tool);
  }
  if (unknown.length > 0) {
    return `\`tools\` names ${unknown.length === 1 ? 'a tool' : 'tools'} Conch does not have: ${unknown.join(', ')}. Known: ${SUBAGENT_TOOLS.join(', ')}, and MCP tools as mcp__<server>__<tool>.`;
  }
  return tools;
}

function toolName(name: string): string | undefined {
  if (name.startsWith('mcp__') && name.split('__').length >= 3) return name;
  const lower = name.toLowerCase();
  const tool = TOOL_ALIASES[lower] ?? lower;
  return isCodingToolName(tool) && tool !== 'task' ? tool : undefined;
}
