// A subagent definition: a Markdown file with front matter (name, description, tools, optional model) whose body is
// the subagent's system prompt, from the workspace (.agents/agents/*.md, .claude/agents/*.md) or the person's own.

export type AgentDefinitionSource = 'workspace' | 'personal';

/** A definition the `task` tool offers as an `agent` value. */
export type AgentDefinition = {
  name: string;
  description: string;
  /** The tools it may use (coding tool names, and MCP tools by registry name); explore and worker are built in. */
  tools: string[];
  /** A model id from the person's subagent models; absent: the session's model. */
  model?: string;
  /** The body: its system prompt. */
  prompt: string;
  /** Where it was read from (workspace-relative, or personal/<file>). */
  path: string;
  source: AgentDefinitionSource;
};

/** A file that is not a usable definition, listed with why, as skills are. */
export type InvalidAgentDefinition = { path: string; name?: string; reason: string; source: AgentDefinitionSource };
