// Which files a tool call read or modified, for the lists a compaction summary carries. It comes from the tool
// catalog's names, so a new tool fails to compile here until it says what it touches.
import type { FileEffect, FileEffectOf } from '../../agent/compaction';
import type { ToolCall } from '../../ai/types';
import { isCodingToolName, type CodingToolName } from '../../tools/catalog';

/**
 * What `call` did to files: read/grep/find/ls read their path, write/edit modify it; bash counts as neither, todo has
 * none, nor has a task (a subagent's own reads stay in its context; a worker's files are in its result).
 */
export const fileEffectOf: FileEffectOf = (call: ToolCall): FileEffect | undefined => {
  if (!isCodingToolName(call.name)) return undefined;
  const name: CodingToolName = call.name;
  const path = typeof call.arguments.path === 'string' && call.arguments.path.trim() !== '' ? [call.arguments.path] : [];
  switch (name) {
    case 'read':
    case 'grep':
    case 'find':
    case 'ls':
      return { kind: 'read', paths: path };
    case 'write':
    case 'edit':
      return { kind: 'write', paths: path };
    case 'bash':
      return { kind: 'exec', paths: [] };
    case 'todo':
    case 'task':
      return undefined;
    default: {
      const unreachable: never = name;
      return unreachable;
    }
  }
};
