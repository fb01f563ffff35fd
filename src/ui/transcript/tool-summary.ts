// A tool call's arguments as a person reads them: the command for bash, path and line range for read, path and
// size for write, a diff for edit.
import { isCodingToolName } from '../../app/settings';
import { countLines } from '../../app/tool-cards.svelte';

export type DiffLine = { kind: 'add' | 'del' | 'ctx' | 'hunk'; text: string };
export type ToolSummary = { title: string; detail?: string; code?: string; diff?: DiffLine[] };

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
    default: {
      const unhandled: never = toolName;
      return unhandled;
    }
  }
}
