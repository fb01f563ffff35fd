// A tool call as a person reads it, the same in the transcript's cards and in the HTML export: the command for bash,
// path and line range for read, path and size for write, a diff for edit, one line for grep, find and ls, the list
// itself for todo.
import type { TodoItem, ToolCall, ToolResultMessage } from '../../../ai/types';
import type { DiffLine, ToolCallView } from '../../../store';
import { isCodingToolName, type CodingToolName } from '../../../tools/catalog';
import { countLines } from '../../../tools/truncate';
import { TODO_STATUSES } from '../../../agent/todo-list';

export type { DiffLine };
export type ToolSummary = { title: string; detail?: string; code?: string; diff?: DiffLine[]; todos?: TodoItem[] };

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Human size of a text as UTF-8 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Lines of a unified diff, without the file headers. */
export function parseUnifiedDiff(diff: string): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('Index:') || line.startsWith('====')) continue;
    if (line.startsWith('@@')) lines.push({ kind: 'hunk', text: line });
    else if (line.startsWith('+')) lines.push({ kind: 'add', text: line.slice(1) });
    else if (line.startsWith('-')) lines.push({ kind: 'del', text: line.slice(1) });
    else if (line.startsWith(' ')) lines.push({ kind: 'ctx', text: line.slice(1) });
    else if (line.startsWith('\\')) continue;
    else if (line !== '') lines.push({ kind: 'ctx', text: line });
  }
  return lines;
}

function editsOf(args: Record<string, unknown>): { oldText: string; newText: string }[] {
  const list = Array.isArray(args.edits) ? args.edits : [args];
  return list
    .filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null)
    .map((e) => ({ oldText: str(e.oldText) ?? str(e.old_string) ?? '', newText: str(e.newText) ?? str(e.new_string) ?? '' }))
    .filter((e) => e.oldText !== '' || e.newText !== '');
}

/** The diff an edit will make (from its arguments) or made (from its result details, which has line numbers). */
function editDiff(args: Record<string, unknown>, details: unknown): DiffLine[] {
  const fromDetails = details && typeof details === 'object' ? str((details as { diff?: unknown }).diff) : undefined;
  if (fromDetails) return parseUnifiedDiff(fromDetails);
  const lines: DiffLine[] = [];
  editsOf(args).forEach((edit, i) => {
    if (i > 0) lines.push({ kind: 'hunk', text: '⋯' });
    for (const l of edit.oldText.split('\n')) lines.push({ kind: 'del', text: l });
    for (const l of edit.newText.split('\n')) lines.push({ kind: 'add', text: l });
  });
  return lines;
}

/** The items of a todo call as far as they can be read (arguments still streaming in, or a list the tool refused). */
function todoItemsOf(args: Record<string, unknown>): TodoItem[] {
  const list = Array.isArray(args.todos) ? (args.todos as unknown[]) : [];
  return list.flatMap((raw) => {
    const item = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const content = str(item.content)?.trim();
    if (!content) return [];
    const status = TODO_STATUSES.find((s) => s === item.status) ?? 'pending';
    return [{ content, status }];
  });
}

/** What a card shows for `toolName` called with `rawArgs` (and its result details once known). */
export function summarizeToolCall(toolName: string, rawArgs: unknown, details?: unknown): ToolSummary {
  if (!isCodingToolName(toolName)) return { title: toolName, code: JSON.stringify(rawArgs, null, 2) };
  const args = rawArgs && typeof rawArgs === 'object' ? (rawArgs as Record<string, unknown>) : {};
  const path = str(args.path) ?? str(args.file_path);
  switch (toolName) {
    case 'bash':
      return { title: 'Run command', code: str(args.command) ?? '', detail: num(args.timeout) ? `timeout ${num(args.timeout)} s` : undefined };
    case 'read': {
      const offset = num(args.offset);
      const limit = num(args.limit);
      const range = offset || limit ? `lines ${offset ?? 1}–${limit ? (offset ?? 1) + limit - 1 : 'end'}` : undefined;
      return { title: `Read ${path ?? ''}`, detail: range };
    }
    case 'write': {
      const content = str(args.content) ?? '';
      // The write tool's own count, so the header and the result below it agree.
      const lines = countLines(content);
      return { title: `Write ${path ?? ''}`, detail: `${formatBytes(new TextEncoder().encode(content).length)}, ${lines} line${lines === 1 ? '' : 's'}` };
    }
    case 'edit':
      return { title: `Edit ${path ?? ''}`, diff: editDiff(args, details) };
    case 'grep':
      return { title: `Search for ${JSON.stringify(str(args.pattern) ?? '')}`, detail: [path ?? str(args.glob)].filter(Boolean).join(' ') || undefined };
    case 'find':
      return { title: `Find ${str(args.pattern) ?? ''}`, detail: path };
    case 'ls':
      return { title: `List ${path ?? '.'}` };
    case 'task':
      return { title: `Task: ${str(args.description) ?? ''}`, detail: str(args.agent) };
    case 'todo': {
      const todos = todoItemsOf(args);
      return { title: 'Todo list', detail: `${todos.filter((t) => t.status === 'completed').length}/${todos.length} done`, todos };
    }
    default: {
      const unhandled: never = toolName;
      return unhandled;
    }
  }
}

/** Output long enough to sit behind an "Output (n lines)" line rather than show in full. */
export function isLongOutput(text: string): boolean {
  return text.length > 600 || countLines(text) > 12;
}

/** The text of a tool result as a card shows it (an image as a placeholder line). */
export function resultText(result: ToolResultMessage | undefined): string {
  return result?.content.map((c) => (c.type === 'text' ? c.text : `[${c.mimeType} image]`)).join('\n') ?? '';
}

/**
 * A tool call as the HTML export shows it: its card's summary, a write's content, and its result: a command's output
 * in full (behind one line when long), a write's or an edit's first line, what a read, grep, find or ls returned
 * behind one line. Errors show in full.
 */
export function exportedToolCall(call: ToolCall, result: ToolResultMessage | undefined): ToolCallView {
  const summary = summarizeToolCall(call.name, call.arguments, result?.details);
  const view: ToolCallView = { tool: call.name, ...summary };
  if (call.name === 'write') view.content = str(call.arguments.content) ?? '';
  if (!result) return view;
  const text = resultText(result);
  const images = result.content.filter((c) => c.type === 'image');
  const show = isCodingToolName(call.name) ? resultShown(call.name, text) : isLongOutput(text) ? 'collapsed' : 'full';
  view.result = { text, lines: countLines(text), isError: result.isError, show: result.isError ? 'full' : show, images };
  return view;
}

function resultShown(name: CodingToolName, text: string): 'full' | 'collapsed' | 'first-line' {
  switch (name) {
    case 'bash':
      return isLongOutput(text) ? 'collapsed' : 'full';
    case 'write':
    case 'edit':
    case 'todo':
      return 'first-line';
    case 'read':
    case 'grep':
    case 'find':
    case 'ls':
    case 'task':
      return 'collapsed';
    default: {
      const unhandled: never = name;
      return unhandled;
    }
  }
}
