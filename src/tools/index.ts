// Conch's seven coding tools, each working only through the Runtime interface.
import type { AgentTool } from '../agent/types';
import type { Runtime } from '../runtime/types';
import { createBashTool } from './bash';
import { createEditTool } from './edit';
import { createFindTool } from './find';
import { createGrepTool } from './grep';
import { createLsTool } from './ls';
import { createReadTool } from './read';
import { createWriteTool } from './write';

export { createBashTool, createEditTool, createFindTool, createGrepTool, createLsTool, createReadTool, createWriteTool };
export { displayPath, resolvePath, resolveToolPath } from './paths';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead, truncateTail, type TruncationResult } from './truncate';
export type { BashDetails } from './bash';
export type { EditDetails } from './edit';
export type { ReadDetails } from './read';
export type { WriteDetails } from './write';

export const CODING_TOOL_NAMES = ['read', 'write', 'edit', 'bash', 'grep', 'find', 'ls'] as const;
export type CodingToolName = (typeof CODING_TOOL_NAMES)[number];

/** The tools active in a new session. */
export const DEFAULT_ACTIVE_TOOLS = ['read', 'bash', 'edit', 'write'] as const;

/** All seven coding tools over `runtime`, in CODING_TOOL_NAMES order. */
export function createCodingTools(runtime: Runtime): AgentTool[] {
  return [
    createReadTool(runtime),
    createWriteTool(runtime),
    createEditTool(runtime),
    createBashTool(runtime),
    createGrepTool(runtime),
    createFindTool(runtime),
    createLsTool(runtime),
  ];
}
