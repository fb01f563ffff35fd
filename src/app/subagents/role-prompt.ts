// A subagent's system prompt: the workspace's (as the session builds it, for the subagent's own tools), a
// definition's body, and what it means to be a subagent.
import type { AgentDefinition } from './definitions/agent-definition';

export type SubagentKind = 'explore' | 'worker';

const EXPLORE_NOTE =
  'You explore: look with the reading tools and change nothing. Search widely, read what matters, and leave out what turned out not to.';
const WORKER_NOTE =
  'You work in your own copy of the workspace: make the changes the task asks for and check them. They are merged into the live workspace when you finish, so do not undo them at the end.';
const LIVE_WORKER_NOTE = 'You work directly in the live workspace: make the changes the task asks for and check them.';

/** The prompt for a subagent of `kind` (a worker `onFork` or on the live workspace), with `definition`'s body. */
export function subagentSystemPrompt(workspacePrompt: string, kind: SubagentKind, onFork: boolean, definition?: AgentDefinition): string {
  const role = kind === 'explore' ? EXPLORE_NOTE : onFork ? WORKER_NOTE : LIVE_WORKER_NOTE;
  return [
    workspacePrompt,
    definition && definition.prompt.trim() !== '' ? `${definition.name}:\n${definition.prompt.trim()}` : '',
    [
      'You are a subagent: the main agent gave you one task, and sees nothing of your work but your final reply.',
      role,
      'You cannot start subagents. End with your conclusion only: the answer, the findings with their file paths and lines, or what you changed and how you checked it, and anything left undone. Be complete but brief.',
    ].join('\n'),
  ]
    .filter((part) => part !== '')
    .join('\n\n');
}
