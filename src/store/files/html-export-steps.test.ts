import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CompactionEntry, Message, ToolCall } from '../../ai/types';
import { exportSessionHtml, type DescribeToolCall } from './html-export';
import { assistant, call, result, transcript, user } from '../testing/messages';

const info = { title: 'T', createdAt: 0, model: 'm', provider: 'p' };

/** Edits show their diff and writes their content, as the app describes them. */
const describeCall: DescribeToolCall = (toolCall: ToolCall) => {
  const path = String(toolCall.arguments.path ?? '');
  if (toolCall.name === 'write') return { tool: 'write', title: `Write ${path}`, content: String(toolCall.arguments.content ?? '') };
  if (toolCall.name === 'edit') {
    const { oldText, newText } = toolCall.arguments as { oldText: string; newText: string };
    return { tool: 'edit', title: `Edit ${path}`, diff: [{ kind: 'hunk', text: '@@ -1 +1 @@' }, { kind: 'del', text: oldText }, { kind: 'add', text: newText }] };
  }
  return { tool: toolCall.name, title: toolCall.name };
};

const compaction = (atSeq: number): CompactionEntry => ({
  type: 'compaction', summary: 'the story so far', firstKeptSeq: atSeq, atSeq, tokensBefore: 9000, tokensAfter: 1000,
  readFiles: [], modifiedFiles: [], timestamp: 5,
});

/** Each step's element as the page has it: its anchor, index and kind, in reading order. */
function stepsOf(html: string): { id: string; index: string; kind: string }[] {
  return [...html.matchAll(/ id="(step-\d+)" data-testid="replay-step" data-index="(\d+)" data-kind="(\w+)"/g)].map(([, id, index, kind]) => ({ id, index, kind }));
}

/** The page as a reader without scripts gets it. */
function withoutScript(html: string): string {
  return html.replace(/<script>[\s\S]*?<\/script>/g, '');
}

describe('the HTML export’s steps', () => {
  it('numbers each user message, reply, tool call and compaction in reading order', () => {
    const messages: Message[] = [
      user('make a file'),
      assistant([{ type: 'text', text: 'Writing it.' }, call('w', 'write', { path: 'a.ts', content: 'x' })]),
      result('w', 'wrote', 'write'),
      assistant([call('e', 'edit', { path: 'a.ts', oldText: 'x', newText: 'y' })]),
      result('e', 'edited', 'edit'),
      assistant('Done.'),
      user('thanks'),
    ];
    const html = exportSessionHtml(info, messages, { describeToolCall: describeCall, compactions: [compaction(6)] });
    const steps = stepsOf(html);
    // The reply that only calls a tool is no step of its own; the compaction sits before the message it precedes.
    expect(steps.map((s) => s.kind)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'compaction', 'user']);
    expect(steps.map((s) => s.index)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(steps.map((s) => s.id)).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'step-5', 'step-6', 'step-7']);
    expect(html).toContain('<div class="tool-call" id="step-3" data-testid="replay-step" data-index="2" data-kind="tool" data-tool="write"');
  });

  it('shows each edit’s diff and each write’s content inside its own step, with or without scripts', () => {
    const long = 'line\n'.repeat(200);
    const messages: Message[] = [
      user('go'),
      assistant([call('w', 'write', { path: 'new.ts', content: 'export const a = 1;\n' }), call('l', 'write', { path: 'long.txt', content: long })]),
      result('w', 'ok', 'write'),
      result('l', 'ok', 'write'),
      assistant([call('e', 'edit', { path: 'old.ts', oldText: 'let b = 2;', newText: 'const b = 3;' })]),
      result('e', 'ok', 'edit'),
    ];
    const page = withoutScript(exportSessionHtml(info, messages, { describeToolCall: describeCall }));
    const step = (n: number) => page.slice(page.indexOf(`id="step-${n}"`), page.indexOf(`id="step-${n + 1}"`) >>> 0);
    expect(step(2)).toContain('<pre class="content" data-testid="replay-diff" data-change="write">export const a = 1;\n</pre>');
    // A long write is behind one line the timeline opens at its step; its text is in the page all the same.
    expect(step(3)).toContain('<details class="result change"><summary>Content (200 lines)</summary><pre class="content" data-testid="replay-diff" data-change="write">');
    expect(step(3)).toContain(long);
    expect(step(4)).toContain('<div class="diff" data-testid="replay-diff" data-change="edit">');
    expect(step(4)).toContain('<div class="del"><span class="sign">−</span>let b = 2;</div><div class="add"><span class="sign">+</span>const b = 3;</div>');
  });

  it('keeps everything readable without scripts: the controls exist only once the script makes them', () => {
    const html = exportSessionHtml(info, transcript(3), { describeToolCall: describeCall });
    const page = withoutScript(html);
    for (let turn = 0; turn < 3; turn++) {
      expect(page).toContain(`step ${turn}: change the file`);
      expect(page).toContain(`Done with step ${turn}.`);
    }
    for (const control of ['replay-next', 'replay-prev', 'replay-position', '<button', '<nav', ' data-current=']) expect(page).not.toContain(control);
    expect(html).toContain(`'replay-next'`);
    // Nothing is hidden until a script shows it: the only rule hiding anything hides the controls.
    expect(page.match(/display:none/g)).toEqual(['display:none']);
    expect(page).toContain('.timeline{display:none}');
  });

  it('allows only its own script, by hash, and that script reaches nothing outside the page', () => {
    const html = exportSessionHtml(info, transcript(2));
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).toHaveLength(1);
    expect(html.match(/<script/gi)).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0], 'utf8').digest('base64');
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
    expect(csp).toBe(`default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:`);
    expect(scripts[0]).not.toMatch(/fetch|XMLHttpRequest|import|WebSocket|sendBeacon|\.src\b|innerHTML|eval|Function\(/);
  });

  it('never lets hostile messages, tool arguments, file names or file content become markup', () => {
    const hostile = ['<script>alert(1)</script>', '</script><script>alert(2)</script>', '<img src=x onerror=alert(3)>'];
    const [script, closing, img] = hostile;
    const messages: Message[] = [
      user(`please ${closing} ${img}`),
      assistant([{ type: 'text', text: script }, call('w', 'write', { path: `${img}.ts`, content: `${closing}\n${img}` })]),
      result('w', closing, 'write'),
      assistant([call('e', 'edit', { path: closing, oldText: script, newText: img })]),
      result('e', img, 'edit'),
      assistant([call('b', 'bash', { command: closing })]),
      result('b', script),
    ];
    const html = exportSessionHtml({ ...info, title: closing }, messages, { describeToolCall: describeCall, files: [`${img}.ts`, closing] });
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html.match(/<\/script/gi)).toHaveLength(1);
    expect(html.match(/<img/gi)).toBeNull();
    const tags = [...withoutScript(html).matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)];
    for (const [, , attributes] of tags) expect(attributes).not.toMatch(/\son\w+\s*=/i);
    expect(html).toContain('&#60;/script&#62;&#60;script&#62;alert(2)&#60;/script&#62;\n&#60;img src=x onerror=alert(3)&#62;</pre>');
    expect(html).toContain('<span class="sign">−</span>&#60;script&#62;alert(1)&#60;/script&#62;</div>');
    expect(html).toContain('Edit &#60;/script&#62;&#60;script&#62;alert(2)&#60;/script&#62;');
  });

  it('stays small on a 5,000-message session: each step carries only its own change', () => {
    const file = 'export const table = [\n' + '  "a row of the table",\n'.repeat(500) + '];\n';
    const messages: Message[] = [
      user('write the table'),
      assistant([call('w', 'write', { path: 'table.ts', content: file })]),
      result('w', 'ok', 'write'),
      ...transcript(1250).slice(3),
    ];
    expect(messages.length).toBeGreaterThanOrEqual(5000);
    const html = exportSessionHtml(info, messages, { describeToolCall: describeCall, files: ['table.ts'] });
    expect(html.split('a row of the table').length - 1).toBe(500);
    const steps = stepsOf(html).length;
    expect(steps).toBeGreaterThan(4000);
    // About 70 bytes of step markup per step, on top of what the page held before.
    expect(html.length).toBeLessThan(3_000_000);
  });
});
