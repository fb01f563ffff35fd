// The todo tool: the agent's plan of work as a list the person watches. Each call sends the whole list, which
// replaces the one before; at most one item is in progress. It touches no file, so it declares no effects and
// overlaps freely with every other call of a batch. The session's list is the last valid call's (latestTodoList).
import { Type, type Static } from '@sinclair/typebox';
import type { AgentTool } from '../agent/types';
import { completedCount, formatTodoList, TODO_STATUSES } from '../agent/todo-list';
import type { AssistantMessage, Message, TodoItem, TodoStatus } from '../ai/types';
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

export type TodoCheck = { ok: true; items: TodoItem[] } | { ok: false; message: string };

const quoted = (item: { content: string }, index: number) => `"${item.content}" (item ${index + 1})`;

/** Checks a todo list from anywhere (the model, a stored transcript): its shape, and at most one item in progress. */
export function checkTodoList(value: unknown): TodoCheck {
  if (!Array.isArray(value)) return { ok: false, message: 'todos must be a list of { content, status } items.' };
  const items: TodoItem[] = [];
  const problems: string[] = [];
  value.forEach((raw: unknown, index) => {
    const item = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const content = typeof item.content === 'string' ? item.content.trim() : '';
    const status = item.status;
    if (content === '') problems.push(`item ${index + 1} has no content`);
    if (typeof status !== 'string' || !(TODO_STATUSES as readonly string[]).includes(status)) {
      problems.push(`item ${index + 1} has status ${JSON.stringify(status)}, which is not one of ${TODO_STATUSES.join(', ')}`);
      return;
    }
    items.push({ content, status: status as TodoStatus });
  });
  if (problems.length > 0) return { ok: false, message: `The todo list was not changed: ${problems.join('; ')}. Send the whole list again.` };
  const inProgress = items.flatMap((item, index) => (item.status === 'in_progress' ? [quoted(item, index)] : []));
  if (inProgress.length > 1) {
    return {
      ok: false,
      message:
        `The todo list was not changed: only one item may be in_progress, but ${inProgress.length} are: ` +
        `${inProgress.join(', ')}. Keep the one you are working on in_progress, mark the others pending or completed, ` +
        'and send the whole list again.',
    };
  }
  return { ok: true, items };
}

/** Models sometimes send the bare list, or the list as a JSON string: both are taken as `{ todos }`. */
function prepareTodoArguments(raw: unknown): unknown {
  if (Array.isArray(raw)) return { todos: raw };
  if (typeof raw !== 'object' || raw === null || typeof (raw as { todos?: unknown }).todos !== 'string') return raw;
  try {
    return { ...raw, todos: JSON.parse((raw as { todos: string }).todos) as unknown };
  } catch {
    return raw;
  }
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

/** The list the last valid todo call of `message` sets, or undefined (its calls only; results are not looked at). */
export function todoListOfReply(message: AssistantMessage, refused: ReadonlySet<string> = new Set()): TodoItem[] | undefined {
  for (let i = message.content.length - 1; i >= 0; i--) {
    const block = message.content[i];
    if (block.type !== 'toolCall' || block.name !== 'todo' || refused.has(block.id)) continue;
    const checked = checkTodoList((prepareTodoArguments(block.arguments) as { todos?: unknown }).todos);
    if (checked.ok) return checked.items;
  }
  return undefined;
}

/**
 * The todo list `messages` leave: the last todo call whose arguments are valid and whose result (if it has one yet)
 * is not an error. Undefined when no call ever set one.
 */
export function latestTodoList(messages: readonly Message[]): TodoItem[] | undefined {
  // Results come after their calls: walking back, a call's refusal is known before the call is reached.
  const refused = new Set<string>();
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'toolResult') {
      if (message.toolName === 'todo' && message.isError) refused.add(message.toolCallId);
    } else if (message.role === 'assistant') {
      const items = todoListOfReply(message, refused);
      if (items) return items;
    }
  }
  return undefined;
}
