// The coding tools by name (the seven that work on files, and the agent's todo list), with the traits everything
// above them branches on: settings (which tools a mode offers), the policy (what asks), persistence (what may change
// files), the system prompt, the loop's batch ordering (through each tool's declared effects) and the UI's summaries. A record keyed by the name union, and exhaustive
// switches elsewhere, make a new tool a compile error until every place handles it.
import type { ToolEffects } from '../agent/types';

export const CODING_TOOL_NAMES = ['read', 'write', 'edit', 'bash', 'grep', 'find', 'ls', 'todo', 'task'] as const;
export type CodingToolName = (typeof CODING_TOOL_NAMES)[number];

export type ToolTraits = {
  /** Never changes anything: offered in read-only mode, free in ask mode. */
  readOnly: boolean;
  /** May change workspace files (its result means the workspace may have changed). */
  mutating: boolean;
  /** Works on the path it is given (protected paths apply to it); otherwise it may touch anything. */
  pathScoped: boolean;
  /** Waits for the person's approval in ask mode. */
  asksInAskMode: boolean;
};

export const TOOL_CATALOG: { readonly [N in CodingToolName]: ToolTraits } = {
  read: { readOnly: true, mutating: false, pathScoped: true, asksInAskMode: false },
  grep: { readOnly: true, mutating: false, pathScoped: true, asksInAskMode: false },
  find: { readOnly: true, mutating: false, pathScoped: true, asksInAskMode: false },
  ls: { readOnly: true, mutating: false, pathScoped: true, asksInAskMode: false },
  write: { readOnly: false, mutating: true, pathScoped: true, asksInAskMode: true },
  edit: { readOnly: false, mutating: true, pathScoped: true, asksInAskMode: true },
  bash: { readOnly: false, mutating: true, pathScoped: false, asksInAskMode: true },
  // It touches no file: the tool declares no effects, so it waits for nothing and holds up nothing in a batch.
  todo: { readOnly: true, mutating: false, pathScoped: false, asksInAskMode: false },
  // A subagent (built in src/app/subagents, as it composes the loop and these tools). These are an explore task's
  // traits (free in ask mode); a worker call's own (it changes files, asks in ask mode, is refused where only looking
  // is allowed) are the task tool's to declare per call (taskCallTraits). Read-only and plan mode leave it out.
  task: { readOnly: true, mutating: false, pathScoped: false, asksInAskMode: false },
};

/** The traits of a `task` call that changes files (a worker, or a definition with writing tools). */
export const WRITING_TASK_TRAITS: ToolTraits = { readOnly: false, mutating: true, pathScoped: false, asksInAskMode: true };

/** The tools active in a new session. */
export const DEFAULT_ACTIVE_TOOLS = ['read', 'bash', 'edit', 'write', 'todo', 'task'] as const satisfies readonly CodingToolName[];

/**
 * The tools read-only and plan mode offer: every tool that never changes anything (the todo list changes no file),
 * but not `task`: those modes keep to the five looking tools they have always had, and a subagent is another model
 * spending the person's tokens.
 */
export const READ_ONLY_TOOLS: readonly CodingToolName[] = CODING_TOOL_NAMES.filter((name) => TOOL_CATALOG[name].readOnly && name !== 'task');

export function isCodingToolName(name: string): name is CodingToolName {
  return (CODING_TOOL_NAMES as readonly string[]).includes(name);
}

/** The traits of `name`; an unknown tool is treated as able to change anything (never read-only, asks in ask mode). */
export function toolTraits(name: string): ToolTraits {
  return isCodingToolName(name) ? TOOL_CATALOG[name] : { readOnly: false, mutating: true, pathScoped: false, asksInAskMode: true };
}

/** What a call of `name` on `paths` (absolute) may touch, as the loop orders batches by it. */
export function effectsOf(name: CodingToolName, paths: string[]): ToolEffects {
  const traits = TOOL_CATALOG[name];
  if (!traits.pathScoped) return { kind: 'exec', paths: [] };
  return { kind: traits.mutating ? 'write' : 'read', paths };
}
