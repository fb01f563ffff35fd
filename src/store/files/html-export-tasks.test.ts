// Subagent tasks in the HTML export: a closed group under the call that started it, with what it did and its own
// transcript, its steps numbered in reading order; everything it carries escaped.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { exportSessionHtml } from './html-export';
import { assistant, call, result, task, user } from '../testing/messages';

const info = { title: 'T', createdAt: 0, model: 'm', provider: 'p' };
const messages: Message[] = [
  user('look around and fix it'),
  assistant([call('t1', 'task', { description: 'Find the config loader' }), call('t2', 'task', { description: 'Fix the parser' })]),
  result('t1', 'The config is loaded in src/config.ts.', 'task'),
  result('t2', 'conflict', 'task'),
  assistant('Done.'),
];
const worker = task('t2', {
  agent: 'worker',
  description: 'Fix the <parser>',
  status: 'conflict',
  queuedAt: 12,
  filesChanged: ['src/parse.ts', 'src/<x>.ts'],
  conflicts: [{ path: 'src/parse.ts', hunks: [{ baseStart: 3, base: 'a\n', live: 'b\n', worker: 'c\n' }] }],
  messages: [user('Fix the parser'), assistant([call('e1', 'edit', { path: 'src/parse.ts' })]), result('e1', 'edited <b>', 'edit'), assistant('Fixed.')],
  result: undefined,
  error: 'The changes conflict with src/parse.ts',
});

function stepKinds(html: string): string[] {
  return [...html.matchAll(/data-testid="replay-step" data-index="\d+" data-kind="(\w+)"/g)].map(([, kind]) => kind);
}

describe('tasks in the HTML export', () => {
  it('shows each task closed under its call: description, agent, status, tokens and cost, files, result, then its transcript', () => {
    const html = exportSessionHtml(info, messages, { tasks: [task('t1'), worker] });
    const groups = [...html.matchAll(/<details class="task" data-testid="task-card" data-status="(\w+)">([\s\S]*?)<\/details>/g)];
    expect(groups.map(([, status]) => status)).toEqual(['done', 'conflict']);
    const explore = html.slice(html.indexOf('data-status="done"><summary>'), html.indexOf('data-status="conflict"><summary>'));
    expect(explore).toContain('Find the config loader');
    expect(explore).toContain('explore · done · 1 tool call · 240 tokens · $0.030');
    expect(explore).toContain('<pre class="text task-result">The config is loaded in src/config.ts.</pre>');
    expect(explore).toContain('<div class="task-transcript" data-testid="task-transcript"><section class="msg user"');
    // Each group follows the card of the call it answers.
    expect(html.indexOf('data-status="done"><summary>')).toBeGreaterThan(html.indexOf('data-tool="task"'));
    const conflicted = html.slice(html.indexOf('data-status="conflict"><summary>'));
    expect(conflicted).toContain('worker · conflict, not applied');
    expect(conflicted).toContain('Files changed: <code>src/parse.ts</code>, <code>src/&#60;x&#62;.ts</code>');
    expect(conflicted).toContain('Conflicts in <code>src/parse.ts</code> (1 hunk)');
    expect(conflicted).toContain('The changes conflict with src/parse.ts');
  });

  it('escapes what a task carries', () => {
    const html = exportSessionHtml(info, messages, { tasks: [worker] });
    expect(html).toContain('Fix the &#60;parser&#62;');
    expect(html).toContain('edited &#60;b&#62;');
    expect(html).not.toContain('<parser>');
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("numbers a task's own steps after its call, in reading order", () => {
    const html = exportSessionHtml(info, messages, { tasks: [task('t1'), worker] });
    expect(stepKinds(html)).toEqual([
      'user',
      'tool', // t1's call, then t1's transcript
      'user', 'tool', 'assistant',
      'tool', // t2's call, then t2's transcript
      'user', 'tool', 'assistant',
      'assistant',
    ]);
  });

  it('marks a task a reload cut off as interrupted', () => {
    const cut = task('t1', { status: 'aborted', interrupted: true, result: undefined, error: 'Interrupted' });
    expect(exportSessionHtml(info, messages, { tasks: [cut] })).toContain('explore · stopped (interrupted by a reload)');
  });
});
