// The todo tool: the agent's plan of work as a list the person watches. Each call sends the whole list, which
// replaces the one before; at most one item is in progress. It touches no file, so it declares no effects and
// overlaps freely with every other call of a batch. The session's list is the last valid call's (latestTodoList).
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import { checkTodoList, completedCount, formatTodoList, prepareTodoArguments } from '../agent/todo-list';

export { checkTodoList, latestTodoList, todoListOfReply, type TodoCheck } from '../agent/todo-list';
import type { TodoItem } from '../ai/types';
import { textResult } from './tool-support';

export const todoParameters = Type.Object({
  todos: Type.Array(
    Type.Object({
      content: Type.String({ description: 'The step, in a few words a person understands ("Add a test for the parser").' }),
      status: Type.Union([Type.Literal('pending'), Type.Literal('in_progress'), Type.Literal('completed')], {
        description: 'pending, in_progress (at most one item at a time) or completed.',
      }),
    }),
    { description: 'The whole list, in order: every call replaces the previous list. An empty list clears it.' },
  ),
});

export type TodoArguments = Static<typeof todoParameters>;

export interface TodoDetails {
  todos: TodoItem[];
  done: number;
  total: number;
}

/** The todo tool; the list lives in the transcript (its calls), so the tool itself holds nothing. */
export function createTodoTool(): AgentTool<typeof todoParameters> {
  return {
    name: 'todo',
    label: 'Todo list',
    description:
      'Keep a todo list the person can watch: for work of three or more steps, send the whole list with each ' +
      'item pending, in_progress or completed. Every call replaces the list. Keep exactly one item in_progress while ' +
      'you work on it, and mark it completed as soon as it is done.',
    parameters: todoParameters,
    prepareArguments: prepareTodoArguments,
    async execute(_toolCallId, args) {
      const checked = checkTodoList(args.todos);
      if (!checked.ok) throw new Error(checked.message);
      const details: TodoDetails = { todos: checked.items, done: completedCount(checked.items), total: checked.items.length };
      if (details.total === 0) return textResult('The todo list is now empty.', details);
      return textResult(`Todo list updated (${details.done}/${details.total} done):\n${formatTodoList(checked.items)}`, details);
    },
  };
}
