// The agent's todo list: checking one (from the model or a stored transcript), finding the one a transcript leaves,
// and the list as text for the model (the todo tool's result, the list a compaction re-states). No TypeBox here, so
// the page can show the list without loading the tools.
import type { AssistantMessage, Message, TodoItem, TodoStatus } from '../ai/types';

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
export function prepareTodoArguments(raw: unknown): unknown {
  if (Array.isArray(raw)) return { todos: raw };
  if (typeof raw !== 'object' || raw === null || typeof (raw as { todos?: unknown }).todos !== 'string') return raw;
  try {
    return { ...raw, todos: JSON.parse((raw as { todos: string }).todos) as unknown };
  } catch {
    return raw;
  }
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
