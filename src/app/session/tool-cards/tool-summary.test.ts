// The HTML export renders tool calls as the app's cards do, through the app's own summary of each tool.
import { describe, expect, it } from 'vitest';
import type { Message, ToolResultMessage } from '../../../ai/types';
import { exportSessionHtml } from '../../../store';
import { assistant, call, result, user } from '../../../store/testing/messages';
import { exportedToolCall, summarizeToolCall } from './tool-summary';

const info = { title: 'T', createdAt: 0, model: 'm', provider: 'p' };
const html = (messages: Message[]) => exportSessionHtml(info, messages, { describeToolCall: exportedToolCall });
/** The rendered tool call of `tool` (the export's markup between its div and the next card or message). */
const cardOf = (page: string, tool: string) => page.slice(page.indexOf(`data-tool="${tool}"`)).split(/<div class="tool-call"|<section/)[0];
const failed = (id: string, text: string, toolName: string): ToolResultMessage => ({ ...result(id, text, toolName), isError: true });

describe('tool calls in the HTML export', () => {
  const messages: Message[] = [
    user('Make hello.sh and run it'),
    assistant([
      call('w', 'write', { path: 'hello.sh', content: 'echo "<b>hi</b>"\n' }),
      call('b', 'bash', { command: 'sh hello.sh && echo $((1<2))' }),
      call('e', 'edit', { path: 'hello.sh', edits: [{ oldText: 'hi', newText: 'hello & bye' }] }),
      call('r', 'read', { path: 'src/app.ts', offset: 10, limit: 5 }),
      call('g', 'grep', { pattern: 'left-pad', path: 'src' }),
      call('f', 'find', { pattern: '*.ts' }),
      call('l', 'ls', { path: 'src' }),
      call('x', 'bash', { command: 'false' }),
    ]),
    result('w', 'Wrote 17 bytes, 1 line.\nmore', 'write'),
    result('b', '<b>hi</b>\n1', 'bash'),
    { ...result('e', 'Edited hello.sh.', 'edit'), details: { diff: '--- a\n+++ b\n@@ -1 +1 @@\n-echo "<b>hi</b>"\n+echo "<b>hello & bye</b>"\n' } },
    result('r', 'line ten\nline eleven', 'read'),
    result('g', 'src/pad.ts:1: leftPad', 'grep'),
    result('f', 'src/a.ts\nsrc/b.ts', 'find'),
    result('l', 'a.ts\nb.ts', 'ls'),
    failed('x', 'exit code 1', 'bash'),
    assistant('Done.'),
  ];
  const page = html(messages);

  it('shows a command and its output, escaped', () => {
    const bash = cardOf(page, 'bash');
    expect(bash).toContain('<pre class="command">sh hello.sh &#38;&#38; echo $((1&#60;2))</pre>');
    expect(bash).toContain('<pre class="output">&#60;b&#62;hi&#60;/b&#62;\n1</pre>');
    expect(page).not.toContain('&#34;command&#34;:'); // no raw JSON arguments anywhere
  });

  it('shows a write’s path, size and content; an edit as a diff; each with the first line of its result', () => {
    const write = cardOf(page, 'write');
    expect(write).toContain('<span class="tool-title">Write hello.sh</span> <span class="tool-detail">17 B, 1 line</span>');
    expect(write).toContain('<pre class="content" data-testid="replay-diff" data-change="write">echo &#34;&#60;b&#62;hi&#60;/b&#62;&#34;\n</pre>');
    expect(write).toContain('<p class="note">Wrote 17 bytes, 1 line.</p>');
    expect(write).not.toContain('more');
    const edit = cardOf(page, 'edit');
    expect(edit).toContain('<span class="tool-title">Edit hello.sh</span>');
    expect(edit).toContain('<div class="del"><span class="sign">−</span>echo &#34;&#60;b&#62;hi&#60;/b&#62;&#34;</div>');
    expect(edit).toContain('<div class="add"><span class="sign">+</span>echo &#34;&#60;b&#62;hello &#38; bye&#60;/b&#62;&#34;</div>');
  });

  it('shows read, grep, find and ls as their one-line summary, what they returned folded away', () => {
    expect(cardOf(page, 'read')).toContain('<span class="tool-title">Read src/app.ts</span> <span class="tool-detail">lines 10–14</span>');
    expect(cardOf(page, 'grep')).toContain('<span class="tool-title">Search for &#34;left-pad&#34;</span> <span class="tool-detail">src</span>');
    expect(cardOf(page, 'find')).toContain('<span class="tool-title">Find *.ts</span>');
    expect(cardOf(page, 'ls')).toContain('<span class="tool-title">List src</span>');
    for (const tool of ['read', 'grep', 'find', 'ls']) expect(cardOf(page, tool)).toMatch(/<details class="result"><summary>Output \(\d lines?\)<\/summary>/);
  });

  it('shows a failed call’s error in full, and each result once, inside its call', () => {
    expect(page).toContain('data-status="error"><div class="tool-head"><span class="tool-name">bash</span> <span class="tool-title">Run command</span></div><pre class="command">false</pre><pre class="output error">exit code 1</pre>');
    expect(page.match(/data-role="toolResult"/g)).toBeNull();
    expect(page.match(/line eleven/g)).toHaveLength(1);
  });

  it('shows a call that never got a result, and a result whose call is missing', () => {
    const orphaned = html([assistant([call('lost', 'bash', { command: 'sleep 9' })]), result('gone', 'stray output')]);
    expect(orphaned).toContain('<p class="note">No result was recorded.</p>');
    expect(orphaned).toContain('data-role="toolResult"');
    expect(orphaned).toContain('stray output');
  });

  it('stays a page without network, and without script but the timeline', () => {
    expect(page).toContain(`default-src 'none'`);
    const withoutText = page.replace(/<pre[^>]*>[\s\S]*?<\/pre>/g, '').replace(/<script>[\s\S]*?<\/script>/, '');
    expect(withoutText).not.toMatch(/<script|<link|@import|url\(|(src|href)="(https?:)?\/\//i);
  });

  it('describes a tool it does not know by its raw arguments, as the card does', () => {
    expect(summarizeToolCall('deploy', { target: 'prod' })).toEqual({ title: 'deploy', code: '{\n  "target": "prod"\n}' });
    expect(cardOf(html([assistant([call('d', 'deploy', { target: 'prod' })]), result('d', 'ok', 'deploy')]), 'deploy')).toContain('<pre class="output">ok</pre>');
  });
});

describe('the todo list in the HTML export', () => {
  it('shows each todo call as its list, and the list the session left under the title', async () => {
    const { latestTodoList } = await import('../../../tools/todo');
    const todos = (second: string) => [{ content: 'Read <the> parser', status: 'completed' }, { content: 'Fix it', status: second }];
    const messages: Message[] = [
      user('Fix the parser'),
      assistant([call('t1', 'todo', { todos: todos('pending') })]),
      result('t1', 'Todo list updated (1/2 done):', 'todo'),
      assistant([call('t2', 'todo', { todos: todos('in_progress') })]),
      result('t2', 'Todo list updated (1/2 done):', 'todo'),
    ];
    const page = exportSessionHtml(info, messages, { describeToolCall: exportedToolCall, todos: latestTodoList(messages) });
    expect(page).toContain('<section class="todo-list" data-done="1" data-total="2"><h2>Todo list · 1/2 done</h2>');
    expect(page).toContain('<li data-status="completed">☑ Read &#60;the&#62; parser</li>');
    expect(page.split('<header>')[1].split('</header>')[0]).toContain('<li data-status="in_progress">▶ Fix it</li>');
    const card = cardOf(page, 'todo');
    expect(card).toContain('Todo list');
    expect(card).toContain('1/2 done');
    expect(card).toContain('<li data-status="pending">☐ Fix it</li>');
    expect(summarizeToolCall('todo', { todos: todos('in_progress') })).toMatchObject({ title: 'Todo list', detail: '1/2 done' });
  });
});
