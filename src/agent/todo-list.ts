// The agent's todo list as text for the model: the todo tool's result and the list a compaction re-states.
import type { TodoItem, TodoStatus } from '../ai/types';

export const TODO_STATUSES: readonly TodoStatus[] = ['pending', 'in_progress', 'completed'];

const MARKS: { readonly [S in TodoStatus]: string } = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** How many items of `items` are completed. */
export function completedCount(items: readonly TodoItem[]): number {
  return items.filter((item) => item.status === 'completed').length;
}

/** The list one item a line, each with its mark (`[x]` completed, `[~]` in progress, `[ ]` pending). */
export function formatTodoList(items: readonly TodoItem[]): string {
  return items.map((item) => `${MARKS[item.status]} ${item.content}`).join('\n');
}
