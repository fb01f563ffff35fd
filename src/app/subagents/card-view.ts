// What the transcript shows of a subagent task: its entry as it is now, the reply it is streaming, and its own tool
// cards, reactive. The session's SubagentTasks (subagent-tasks.svelte.ts) is the source; the task card reads it and
// asks it to apply or discard a conflicted worker's changes.
import type { AssistantMessage, TaskEntry } from '../../ai/types';
import type { ToolCardMap } from '../session/tool-cards/tool-card-map.svelte';

/** One task as its card shows it: the entry, the reply being streamed, and a card per tool call. */
export type TaskView = { readonly entry: TaskEntry; readonly streaming: AssistantMessage | null; readonly cards: ToolCardMap };

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
