// The files a summary lists as read and modified, computed from the tool calls rather than left to the model. The
// loop knows no tool by name, so what a call touched comes from the app (its tool catalog's traits).
import type { Message, ToolCall } from '../../ai/types';

/** What one tool call did to files: 'read' and 'write' calls name their paths; 'exec' (a shell) counts as neither. */
export type FileEffect = { kind: 'read' | 'write' | 'exec'; paths: string[] };
export type FileEffectOf = (call: ToolCall) => FileEffect | undefined;

export type FileLists = { readFiles: string[]; modifiedFiles: string[] };

/**
 * The earlier lists plus every file the tool calls in `messages` read or modified, sorted. A file that was modified
 * is listed only as modified. Calls that failed still count: the model saw the attempt.
 */
export function collectFileLists(messages: readonly Message[], effectOf: FileEffectOf | undefined, earlier?: FileLists): FileLists {
  const read = new Set(earlier?.readFiles);
  const modified = new Set(earlier?.modifiedFiles);
  if (effectOf) {
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      for (const block of message.content) {
        if (block.type !== 'toolCall') continue;
        const effect = effectOf(block);
        if (!effect || effect.kind === 'exec') continue;
        for (const path of effect.paths) (effect.kind === 'write' ? modified : read).add(path);
      }
    }
  }
  for (const path of modified) read.delete(path);
  return { readFiles: [...read].sort(), modifiedFiles: [...modified].sort() };
}
