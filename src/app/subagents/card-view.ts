// What the transcript shows of a subagent task: its entry as it is now, the reply it is streaming, and its own tool
// cards, reactive. The session's SubagentTasks (subagent-tasks.svelte.ts) is the source; the task card reads it and
// asks it to apply or discard a conflicted worker's changes.
import type { AssistantMessage, TaskEntry } from '../../ai/types';
import type { ToolCardMap } from '../session/tool-cards/tool-card-map.svelte';

export type TaskView = { entry: TaskEntry; streaming: AssistantMessage | null; cards: ToolCardMap };

/** What the UI needs of the session's subagent tasks. */
export interface SubagentTaskViews {
  /** Every task of the session, in call order. */
  readonly entries: TaskEntry[];
  /** The task answering the parent's call `toolCallId`; none for a plain tool call or an old session. */
  view(toolCallId: string): TaskView | undefined;
  /** Applies a conflicted worker's kept changes to the live workspace. */
  apply(toolCallId: string): Promise<void> | void;
  /** Drops a conflicted worker's kept changes. */
  discard(toolCallId: string): Promise<void> | void;
}

/** A session without subagent tasks: every `task` call then shows as a plain tool card. */
export const NO_SUBAGENT_TASKS: SubagentTaskViews = { entries: [], view: () => undefined, apply: () => undefined, discard: () => undefined };
