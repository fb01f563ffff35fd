// The agent's todo list as the page shows it, pinned above the composer: the last valid todo call of the transcript,
// or of the reply being streamed, so it changes while the model writes the call. Nothing else stores it: the
// transcript (the session's entries, its file, its export) is where it lives.
import { completedCount } from '../../agent/todo-list';
import type { AssistantMessage, Message, TodoItem } from '../../ai/types';
import { latestTodoList, todoListOfReply } from '../../agent/todo-list';

export type { TodoItem };

/** The list the transcript leaves; undefined when the agent never made one. */
export function transcriptTodoList(messages: readonly Message[]): TodoItem[] | undefined {
  return latestTodoList(messages);
}

/** The list the reply being streamed sets so far, if it has a todo call that already reads as a valid list. */
export function streamingTodoList(streaming: AssistantMessage | null): TodoItem[] | undefined {
  return streaming ? todoListOfReply(streaming) : undefined;
}

/** "3/7 done" as numbers. */
export function todoProgress(items: readonly TodoItem[]): { done: number; total: number } {
  return { done: completedCount(items), total: items.length };
}
