// A read-only, self-contained HTML rendering of a session: no network and no script but the timeline's own (a CSP
// allows that one by its hash and forbids the rest), and every piece of session content escaped, since transcripts
// carry whatever the model, the tools and the repo produced. Tool calls show as the app's cards do, each with its
// result and its change (an edit's diff, a write's content): the app describes them (it knows the tools), this module
// only renders what it is given. Each user message, assistant reply, tool call and compaction is a step the timeline
// walks through; the whole page reads the same without it. A subagent task shows under the call that started it, as a
// closed group: what it was, how it ended, and its own transcript rendered as the session's, its steps in the timeline.
import { formatCost } from '../../ai/cost';
import { isWebAddress } from '../../ai/server-tools';
import type {
  CompactionEntry,
  ImageContent,
  Message,
  ServerToolContent,
  TaskEntry,
  TextContent,
  TodoItem,
  ToolCall,
  ToolResultMessage,
  WebSource,
} from '../../ai/types';
import { stepAttributes, TIMELINE_SCRIPT, TIMELINE_SCRIPT_HASH, TIMELINE_STYLE, type StepKind } from './html-timeline';

export type HtmlSessionInfo = { title: string; createdAt: number; model: string; provider: string };

/** One line of a diff as a person reads it. */
export type DiffLine = { kind: 'add' | 'del' | 'ctx' | 'hunk'; text: string };

/** A tool call as a reader sees it: what it did, in words, and what came back. */
export type ToolCallView = {
  tool: string;
  /** One line: "Run command", "Read src/a.ts". */
  title: string;
  detail?: string;
  /** A command, shown after "$ ". */
  code?: string;
  /** A file's whole content (a write). */
  content?: string;
  diff?: DiffLine[];
  /** A todo call's list. */
  todos?: TodoItem[];
  /** The result: in full, behind an "Output (n lines)" line, or only its first line. */
  result?: { text: string; lines: number; isError: boolean; show: 'full' | 'collapsed' | 'first-line'; images: ImageContent[] };
};

/** Describes a tool call with its result (undefined when none came); without one, calls show their raw arguments. */
export type DescribeToolCall = (call: ToolCall, result: ToolResultMessage | undefined) => ToolCallView;

const SAFE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The whole HTML document. `files` (optional) lists the workspace's paths at the end; each of `compactions` shows as
 * a divider where it was made, its summary expandable; `describeToolCall` says how each tool call reads, and its
 * result shows inside it (a result whose call is missing shows on its own); `todos`, the agent's todo list as the
 * session left it, shows under the title; each of `tasks` shows under the `task` call it answers.
 */
export function exportSessionHtml(
  session: HtmlSessionInfo,
  messages: Message[],
  options: { files?: string[]; compactions?: CompactionEntry[]; describeToolCall?: DescribeToolCall; todos?: TodoItem[]; tasks?: TaskEntry[] } = {},
): string {
  const title = session.title || 'Conch session';
  const describe = options.describeToolCall ?? rawToolCall;
  const tasks = new Map((options.tasks ?? []).map((task) => [task.toolCallId, task]));
  let steps = 0;
  const step = (kind: StepKind) => stepAttributes(steps++, kind);
  // Rendered in reading order, so the steps are numbered as they show (a task's after the call that started it).
  const transcript = (messages: Message[], compactions: CompactionEntry[]): string => {
    const results = new Map<string, ToolResultMessage>();
    const calls = new Set<string>();
    for (const message of messages) {
      if (message.role === 'toolResult') results.set(message.toolCallId, message);
      else if (message.role === 'assistant') for (const block of message.content) if (block.type === 'toolCall') calls.add(block.id);
    }
    const context: RenderContext = {
      toolCall: (call) => {
        const card = renderToolCall(describe(call, results.get(call.id)), step('tool'));
        const task = tasks.get(call.id);
        return task ? card + renderTask(task, transcript) : card;
      },
      shownWithCall: (id) => calls.has(id),
      step,
    };
    const dividers = [...compactions].sort((a, b) => a.atSeq - b.atSeq);
    const parts: string[] = [];
    messages.forEach((message, seq) => {
      while (dividers.length > 0 && dividers[0].atSeq <= seq) parts.push(renderCompaction(dividers.shift()!, context));
      parts.push(renderMessage(message, context));
    });
    for (const compaction of dividers) parts.push(renderCompaction(compaction, context));
    return parts.join('\n');
  };
  const body = transcript(messages, options.compactions ?? []);
  const files = options.files?.length
    ? `<section class="files"><h2>Workspace files (${options.files.length})</h2><ul>${options.files.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul></section>`
    : '';
  const todos = options.todos?.length ? renderTodoSection(options.todos) : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${TIMELINE_SCRIPT_HASH}; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${TIMELINE_STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1>
<p class="meta">${escapeHtml(session.provider)} · ${escapeHtml(session.model)} · ${escapeHtml(formatDate(session.createdAt))} · ${messages.length} messages · exported from Conch, read-only</p>${todos}</header>
<main>
${body}
</main>
${files}
<script>${TIMELINE_SCRIPT}</script>
</body>
</html>
`;
}

type RenderContext = {
  toolCall: (call: ToolCall) => string;
  shownWithCall: (toolCallId: string) => boolean;
  /** Numbers the next step: the attributes that mark its element. */
  step: (kind: StepKind) => string;
};

function renderMessage(message: Message, context: RenderContext): string {
  switch (message.role) {
    case 'user': {
      const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
      return `<section class="msg user" data-role="user"${context.step('user')}><h2>You</h2>${blocks.map(renderBlock).join('')}</section>`;
    }
    case 'assistant': {
      // A reply that only calls tools is no step of its own: its calls are.
      const step = message.errorMessage || message.content.some((block) => block.type !== 'toolCall') ? context.step('assistant') : '';
      const blocks = message.content.map((block) => {
        switch (block.type) {
          case 'text':
            return renderBlock(block) + renderCitations(block);
          case 'thinking':
            return `<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(block.thinking)}</pre></details>`;
          case 'toolCall':
            return context.toolCall(block);
          case 'serverTool':
            return renderServerTool(block);
          default:
            return assertNever(block);
        }
      });
      const error = message.errorMessage ? `<p class="error">${escapeHtml(message.errorMessage)}</p>` : '';
      return `<section class="msg assistant" data-role="assistant"${step}><h2>Assistant <span class="meta">${escapeHtml(message.model)}</span></h2>${blocks.join('')}${error}</section>`;
    }
    case 'toolResult':
      if (context.shownWithCall(message.toolCallId)) return '';
      return `<section class="msg tool-result${message.isError ? ' error' : ''}" data-role="toolResult"><details><summary>${escapeHtml(message.toolName)} result${message.isError ? ' (error)' : ''}</summary>${message.content.map(renderBlock).join('')}</details></section>`;
    default:
      return assertNever(message);
  }
}

/** A call shown by its name and raw arguments, its result in full. */
function rawToolCall(call: ToolCall, result: ToolResultMessage | undefined): ToolCallView {
  const text = result?.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') ?? '';
  const images = result?.content.filter((c) => c.type === 'image') ?? [];
  return {
    tool: call.name,
    title: call.name,
    code: JSON.stringify(call.arguments, null, 2) ?? '',
    result: result && { text, lines: text.split('\n').length, isError: result.isError, show: 'full', images },
  };
}

function renderToolCall(view: ToolCallView, step: string): string {
  const status = !view.result ? 'no-result' : view.result.isError ? 'error' : 'done';
  const parts = [
    `<div class="tool-head"><span class="tool-name">${escapeHtml(view.tool)}</span> <span class="tool-title">${escapeHtml(view.title)}</span>` +
      (view.detail ? ` <span class="tool-detail">${escapeHtml(view.detail)}</span>` : '') +
      '</div>',
  ];
  if (view.code !== undefined) parts.push(`<pre class="command">${escapeHtml(view.code)}</pre>`);
  if (view.content !== undefined) parts.push(renderWritten(view.content));
  if (view.diff?.length) parts.push(renderDiff(view.diff));
  if (view.todos) parts.push(renderTodos(view.todos));
  parts.push(renderResult(view.result));
  // Only a plain name goes into an attribute; any other is text only (escaped, but no reader should have to trust that).
  const tool = /^[\w-]{1,64}$/.test(view.tool) ? ` data-tool="${view.tool}"` : '';
  return `<div class="tool-call"${step}${tool} data-status="${status}">${parts.join('')}</div>`;
}

/** A write's content, the change of its step: long ones behind a line, which the timeline opens at that step. */
function renderWritten(content: string): string {
  const pre = `<pre class="content" data-testid="replay-diff" data-change="write">${escapeHtml(content)}</pre>`;
  return content.length > 600 ? `<details class="result change"><summary>Content (${lineCount(content)})</summary>${pre}</details>` : pre;
}

const TODO_MARKS: { readonly [S in TodoItem['status']]: string } = { pending: '☐', in_progress: '▶', completed: '☑' };

/** A todo list, each item with a mark and its status, so colour is not the only cue. */
function renderTodos(todos: TodoItem[]): string {
  const items = todos.map((t) => `<li data-status="${t.status}">${TODO_MARKS[t.status]} ${escapeHtml(t.content)}</li>`);
  return `<ul class="todos">${items.join('')}</ul>`;
}

function renderTodoSection(todos: TodoItem[]): string {
  const done = todos.filter((t) => t.status === 'completed').length;
  return `<section class="todo-list" data-done="${done}" data-total="${todos.length}"><h2>Todo list · ${done}/${todos.length} done</h2>${renderTodos(todos)}</section>`;
}

/** A search or fetch the provider ran, as the app's card shows it: what was asked, and the pages, as links. */
function renderServerTool(block: ServerToolContent): string {
  const title = block.kind === 'web_search' ? `Search the web: ${block.query ?? ''}` : `Fetch ${block.url ?? ''}`;
  const head = `<div class="tool-head"><span class="tool-name">${block.kind}</span> <span class="tool-title">${escapeHtml(title)}</span></div>`;
  const body = block.error
    ? `<pre class="output error">${escapeHtml(`Failed: ${block.error}`)}</pre>`
    : block.sources.length > 0 ? `<ul class="sources">${block.sources.map((source) => `<li>${link(source)}</li>`).join('')}</ul>` : '';
  return `<div class="tool-call" data-tool="${block.kind}" data-status="${block.error ? 'error' : 'done'}">${head}${body}</div>`;
}

function renderCitations(block: TextContent): string {
  if (!block.citations?.length) return '';
  return `<p class="citations">Sources: ${block.citations.map(link).join(' · ')}</p>`;
}

/** A web link for a source: only http(s) addresses become links; anything else stays text. */
function link(source: WebSource): string {
  const label = escapeHtml(source.title || source.url);
  return isWebAddress(source.url) ? `<a href="${escapeHtml(source.url)}" rel="noreferrer noopener">${label}</a>` : label;
}

function renderResult(result: ToolCallView['result']): string {
  if (!result) return '<p class="note">No result was recorded.</p>';
  const images = result.images.map(renderBlock).join('');
  if (result.isError) return `<pre class="output error">${escapeHtml(result.text || 'The tool failed without a message.')}</pre>${images}`;
  if (!result.text && !images) return '';
  if (result.show === 'first-line') return `<p class="note">${escapeHtml(result.text.split('\n')[0])}</p>`;
  const output = `${result.text ? `<pre class="output">${escapeHtml(result.text)}</pre>` : ''}${images}`;
  return collapsible(`Output (${result.lines} ${result.lines === 1 ? 'line' : 'lines'})`, output, result.show === 'collapsed');
}

function collapsible(label: string, body: string, collapsed: boolean): string {
  return collapsed ? `<details class="result"><summary>${escapeHtml(label)}</summary>${body}</details>` : body;
}

/** Removed lines red, added green, each with a sign so colour is not the only cue. */
function renderDiff(lines: DiffLine[]): string {
  const sign = { add: '+', del: '−', ctx: ' ', hunk: '' };
  const rows = lines.map((line) => `<div class="${line.kind}"><span class="sign">${sign[line.kind]}</span>${escapeHtml(line.text)}</div>`);
  return `<div class="diff" data-testid="replay-diff" data-change="edit">${rows.join('')}</div>`;
}

function lineCount(text: string): string {
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return `${lines} ${lines === 1 ? 'line' : 'lines'}`;
}

const TASK_STATUS: { readonly [S in TaskEntry['status']]: string } = {
  queued: 'queued', running: 'running', done: 'done', error: 'failed', conflict: 'conflict, not applied', aborted: 'stopped',
};

/** A subagent task as a closed group: what it was and how it ended, then its own transcript (rendered by `transcript`). */
function renderTask(task: TaskEntry, transcript: (messages: Message[], compactions: CompactionEntry[]) => string): string {
  const { usage } = task;
  const tokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  const status = `${TASK_STATUS[task.status]}${task.interrupted ? ' (interrupted by a reload)' : ''}`;
  const facts = [
    `${escapeHtml(task.agent)} · ${escapeHtml(status)}`,
    `${task.toolCalls} tool ${task.toolCalls === 1 ? 'call' : 'calls'}`,
    `${tokens.toLocaleString('en')} tokens · ${formatCost(usage.cost.total, usage.cost.unknown === true)}`,
    escapeHtml(`${task.provider} · ${task.model}`),
  ];
  const files = task.filesChanged?.length
    ? `<p class="note">Files changed${task.outcome ? ` (${escapeHtml(task.outcome)})` : ''}: ${task.filesChanged.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')}</p>`
    : '';
  const conflicts = task.conflicts?.length
    ? `<p class="note error">Conflicts in ${task.conflicts.map((c) => `<code>${escapeHtml(c.path)}</code> (${c.hunks.length} ${c.hunks.length === 1 ? 'hunk' : 'hunks'})`).join(', ')}</p>`
    : '';
  const ending = task.result !== undefined
    ? `<pre class="text task-result">${escapeHtml(task.result)}</pre>`
    : task.error ? `<p class="note error">${escapeHtml(task.error)}</p>` : '';
  // Only a known status goes into an attribute; the agent's name is text only.
  return `<details class="task" data-testid="task-card" data-status="${escapeHtml(task.status)}"><summary><span class="tool-name">task</span> ${escapeHtml(task.description)} <span class="meta">${facts.join(' · ')}</span></summary>` +
    `${files}${conflicts}${ending}<div class="task-transcript" data-testid="task-transcript">${transcript(task.messages, task.compactions ?? [])}</div></details>`;
}

function renderCompaction(compaction: CompactionEntry, context: RenderContext): string {
  const tokens = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
  return `<section class="compaction" data-role="compaction"${context.step('compaction')}><details><summary>Context compacted: ${tokens(compaction.tokensBefore)} → ${tokens(compaction.tokensAfter)} tokens</summary><pre class="text">${escapeHtml(compaction.summary)}</pre></details></section>`;
}

function renderBlock(block: TextContent | ImageContent): string {
  if (block.type === 'text') return `<pre class="text">${escapeHtml(block.text)}</pre>`;
  if (SAFE_IMAGE_TYPES.has(block.mimeType) && /^[A-Za-z0-9+/]*={0,2}$/.test(block.data)) {
    return `<img alt="attached image" src="data:${block.mimeType};base64,${block.data}">`;
  }
  return `<p class="meta">[image omitted: unsupported type ${escapeHtml(block.mimeType)}]</p>`;
}

/** Escapes the five HTML-significant characters, for both text and attribute positions. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function formatDate(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

function assertNever(value: never): never {
  throw new Error(`Unexpected session content: ${JSON.stringify(value)}`);
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:0 auto;padding:1rem;color:#1d1d1f;background:#fafafa}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:.85rem;margin:0 0 .3rem;text-transform:uppercase;letter-spacing:.04em;color:#555}
.meta{color:#777;font-size:.85rem;text-transform:none;letter-spacing:0}
.msg{background:#fff;border:1px solid #e3e3e3;border-radius:8px;padding:.6rem .8rem;margin:.6rem 0}
.user{border-left:4px solid #3b82f6}.assistant{border-left:4px solid #10b981}.tool-result{border-left:4px solid #a3a3a3}
.error{border-left-color:#ef4444;color:#b91c1c}
pre{white-space:pre-wrap;word-break:break-word;margin:.3rem 0;font:13px/1.45 ui-monospace,monospace}
pre.text{font:inherit}
.compaction{border-top:1px dashed #a3a3a3;border-bottom:1px dashed #a3a3a3;margin:1rem 0;padding:.3rem 0;text-align:center}
.tool-call{background:#f4f4f5;border:1px solid #e3e3e3;border-radius:6px;margin:.4rem 0;overflow:hidden;font-size:13px}
.tool-head{display:flex;gap:.5rem;align-items:baseline;padding:.35rem .6rem;flex-wrap:wrap}
.tool-name{font-family:ui-monospace,monospace;font-size:12px;background:#e4e4e7;border-radius:4px;padding:0 .35rem;color:#3f3f46}
.tool-title{font-weight:600;overflow-wrap:anywhere}.tool-detail{color:#666}
.todos{list-style:none;margin:0;padding:.35rem .6rem;border-top:1px solid #e3e3e3}.todo-list .todos{border:none;padding:0}
.todos li[data-status="completed"]{text-decoration:line-through;opacity:.7}.todos li[data-status="in_progress"]{font-weight:600}
.tool-call pre,.tool-call .diff,.tool-call .note,.tool-call details{border-top:1px solid #e3e3e3;margin:0;padding:.35rem .6rem}
.tool-call details pre{border-top:none;padding:.35rem 0 0}
pre.command{background:#fff}pre.command::before{content:"$ ";color:#888}
pre.output{color:#3f3f46;max-height:none}pre.output.error{color:#b91c1c;background:#fef2f2}
.note{color:#555;font-size:12.5px}
.sources{margin:0;padding:.35rem .6rem .35rem 1.8rem;border-top:1px solid #e3e3e3}.citations{font-size:13px;color:#555;margin:.2rem 0}
.diff{font:12.5px/1.45 ui-monospace,monospace;overflow-x:auto}.diff div{white-space:pre;min-width:max-content}
.diff .sign{display:inline-block;width:1.4em;color:#888;user-select:none}
.task{border:1px solid #d4d4d8;border-left:4px solid #8b5cf6;border-radius:6px;margin:.4rem 0 .6rem;padding:.35rem .6rem;font-size:13px}
.task>summary{overflow-wrap:anywhere}.task .note{margin:.3rem 0}.task-transcript{border-top:1px solid #e3e3e3;margin-top:.35rem}
.diff .add{background:#dcfce7;color:#14532d}.diff .del{background:#fee2e2;color:#7f1d1d}.diff .hunk{color:#666}
img{max-width:100%}summary{cursor:pointer;color:#555}
@media (prefers-color-scheme:dark){body{background:#111;color:#e5e5e5}.msg{background:#1a1a1a;border-color:#333}
.tool-call{background:#222;border-color:#333}.tool-call pre,.tool-call .diff,.tool-call .note,.tool-call details{border-color:#333}
.tool-name{background:#333;color:#d4d4d8}.tool-detail,.note,h2{color:#a1a1aa}pre.command{background:#161616}pre.output{color:#d4d4d8}
pre.output.error{background:#2a1414;color:#fca5a5}.diff .add{background:#14301d;color:#bbf7d0}.diff .del{background:#3a1616;color:#fecaca}}
`;
