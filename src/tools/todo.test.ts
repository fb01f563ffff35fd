import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../agent/index';
import type { AssistantMessage, Message, ToolResultMessage } from '../ai/types';
import { createScriptedStreamFn, toolCall } from '../ai/providers/scripted';
import { testModel } from '../ai/testing/test-model';
import { checkTodoList, createTodoTool, latestTodoList } from './todo';
import { errorOf, textOf } from './testing/tool-kit';

const list = (...statuses: string[]) => statuses.map((status, i) => ({ content: `step ${i + 1}`, status }));

async function runTodoCalls(...calls: unknown[]): Promise<ToolResultMessage[]> {
  const stream = runAgentLoop(
    [{ role: 'user', content: 'go', timestamp: 0 }],
    { systemPrompt: '', messages: [], tools: [createTodoTool()] },
    { model: testModel(), streamFn: createScriptedStreamFn([{ content: calls.map((args) => toolCall('todo', args as Record<string, unknown>)) }, 'done']) },
  );
  return (await stream.result()).filter((m): m is ToolResultMessage => m.role === 'toolResult');
}

const resultText = (result: ToolResultMessage) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('the todo tool', () => {
  it('takes the whole list and answers with it, counting what is done', async () => {
    const result = await createTodoTool().execute('t1', { todos: list('completed', 'in_progress', 'pending') as never });
    expect(textOf(result)).toBe('Todo list updated (1/3 done):\n[x] step 1\n[~] step 2\n[ ] step 3');
    expect(result.details).toMatchObject({ done: 1, total: 3 });
  });

  it('rejects two items in progress, naming both, and says how to fix it', async () => {
    const message = await errorOf(createTodoTool().execute('t1', { todos: list('in_progress', 'pending', 'in_progress') as never }));
    expect(message).toContain('only one item may be in_progress, but 2 are');
    expect(message).toContain('"step 1" (item 1)');
    expect(message).toContain('"step 3" (item 3)');
    expect(message).not.toContain('step 2');
    expect(message).toContain('send the whole list again');
  });

  it('names items with a status it does not know or no content', () => {
    const checked = checkTodoList([{ content: 'a', status: 'done' }, { content: '  ', status: 'pending' }, { content: 'c' }]);
    expect(checked.ok).toBe(false);
    const message = checked.ok ? '' : checked.message;
    expect(message).toContain('item 1 has status "done", which is not one of pending, in_progress, completed');
    expect(message).toContain('item 2 has no content');
    expect(message).toContain('item 3 has status undefined');
    expect(checkTodoList('not a list')).toMatchObject({ ok: false });
    expect(checkTodoList([])).toEqual({ ok: true, items: [] });
  });

  it('through the loop: a bad status is refused before it runs, a bare list or a JSON string is taken as the list', async () => {
    const [bad, bare, json] = await runTodoCalls(
      { todos: [{ content: 'a', status: 'doing' }] },
      [{ content: 'a', status: 'pending' }],
      { todos: '[{"content":"a","status":"completed"}]' },
    );
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toContain('todos/0/status');
    expect(bare.isError).toBe(false);
    expect(resultText(bare)).toContain('0/1 done');
    expect(json.isError).toBe(false);
    expect(resultText(json)).toContain('1/1 done');
  });
});

describe('latestTodoList', () => {
  const reply = (...calls: { id: string; todos: unknown }[]): AssistantMessage => ({
    role: 'assistant',
    content: calls.map(({ id, todos }) => ({ type: 'toolCall', id, name: 'todo', arguments: { todos } })),
    provider: 'test',
    model: 'test',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } },
    stopReason: 'toolUse',
    timestamp: 0,
  });
  const result = (id: string, isError: boolean): ToolResultMessage => ({
    role: 'toolResult', toolCallId: id, toolName: 'todo', content: [{ type: 'text', text: '' }], isError, timestamp: 0,
  });

  it('is the last call the tool took; a refused or invalid call leaves the one before', () => {
    const messages: Message[] = [
      { role: 'user', content: 'go', timestamp: 0 },
      reply({ id: 'a', todos: list('in_progress', 'pending') }),
      result('a', false),
      reply({ id: 'b', todos: list('completed', 'in_progress') }),
      result('b', true),
      reply({ id: 'c', todos: list('in_progress', 'in_progress') }),
    ];
    expect(latestTodoList(messages)).toEqual(list('in_progress', 'pending'));
    // A call still running (no result yet) already counts: the list updates while the agent works.
    messages.push(reply({ id: 'd', todos: list('completed', 'completed') }));
    expect(latestTodoList(messages)).toEqual(list('completed', 'completed'));
    expect(latestTodoList([{ role: 'user', content: 'go', timestamp: 0 }])).toBeUndefined();
  });
});
