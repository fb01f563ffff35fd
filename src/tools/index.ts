// Conch's coding tools: seven working only through the Workspace (the Runtime interface, with its queue), and the
// agent's todo list. One file per tool (read, write, bash, grep, find, ls, todo; edit/ with its matching, diff and
// argument repair), the tool catalog (catalog.ts: names and traits), output truncation (truncate.ts) and the shared
// search of grep and find.
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { Workspace } from '../runtime/workspace/workspace';
import { createBashTool } from './bash';
import { createEditTool } from './edit/edit';
import { createFindTool } from './find';
import { createGrepTool } from './grep';
import { createLsTool } from './ls';
import { createReadTool } from './read';
import { createTodoTool } from './todo';
import { createWriteTool } from './write';

export { createBashTool, createEditTool, createFindTool, createGrepTool, createLsTool, createReadTool, createTodoTool, createWriteTool };
export { checkTodoList, latestTodoList, todoListOfReply, type TodoDetails } from './todo';
export { displayPath, resolvePath } from './paths';
export {
  CODING_TOOL_NAMES,
  DEFAULT_ACTIVE_TOOLS,
  READ_ONLY_TOOLS,
  TOOL_CATALOG,
  WRITING_TASK_TRAITS,
  isCodingToolName,
  toolTraits,
  type CodingToolName,
  type ToolTraits,
} from './catalog';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead, truncateTail, type TruncationResult } from './truncate';
export type { BashDetails } from './bash';
export type { EditDetails } from './edit/edit';
export type { ReadDetails } from './read';
export type { WriteDetails } from './write';

/**
 * The seven coding tools over a sandbox plus todo, in CODING_TOOL_NAMES order (the catalog's `task` is made by
 * src/app/subagents, since it runs the loop). Given a bare runtime, they work in the one
 * Workspace of that runtime (so they share its per-file queue with everyone else who writes its files).
 */
export function createCodingTools(target: Runtime | Workspace): AgentTool[] {
  const workspace = Workspace.of(target);
  return [
    createReadTool(workspace),
    createWriteTool(workspace),
    createEditTool(workspace),
    createBashTool(workspace),
    createGrepTool(workspace),
    createFindTool(workspace),
    createLsTool(workspace),
    createTodoTool(),
  ];
}
