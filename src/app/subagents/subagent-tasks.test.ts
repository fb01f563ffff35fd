import { describe, expect, it } from 'vitest';
import { createScriptedStreamFn, toolCall, type ScriptedTurnFactory } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import type { StreamRequest, TaskEntry, TaskStatus } from '../../ai/types';
import { createEmbeddedRuntime } from '../../runtime/embedded/in-process';
import { Workspace } from '../../runtime/workspace/workspace';
import { createCodingTools } from '../../tools/index';
import { SessionController } from '../session/controller.svelte';
import { RunOptions } from '../session/run-options';
import { defaultSettings, type Settings } from '../settings/settings';
import { SubagentTasks } from './subagent-tasks.svelte';
import { countedForks } from './testing/fake-forks';
import type { TaskArguments } from './task-tool';

const model = testModel({ provider: 'anthropic' });
const firstText = (request: StreamRequest) => {
  const first = request.messages[0];
  return first && typeof first.content === 'string' ? first.content : '';
};
const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((c) => c.text ?? '').join('\n');

function setup(script: ScriptedTurnFactory, opts: { settings?: Partial<Settings>; files?: Record<string, string>; fork?: boolean } = {}) {
  const settings: Settings = { ...defaultSettings(), apiKey: 'k', ...opts.settings };
  const workspace = Workspace.of(createEmbeddedRuntime({ files: opts.files ?? { 'a.txt': 'one\n', 'b.txt': 'two\n' } }));
  const streamFn = createScriptedStreamFn(script);
  const statuses: Record<string, TaskStatus[]> = {};
  let maxRunning = 0;
  const runOptions = new RunOptions({ workspace, tools: [], streamFn, onRetryNotice: () => {} });
  const forks = opts.fork ? countedForks(workspace) : null;
  const tasks: SubagentTasks = new SubagentTasks({
    workspace,
    getSettings: () => settings,
    resolveModel: () => model,
    callFor: (s, m) => runOptions.callFor(s, m),
    systemPrompt: (tools, s) => runOptions.systemPrompt(tools, s),
    forks: () => forks,
    scheduleUpdate: (fn) => queueMicrotask(fn),
    emit: (task: TaskEntry) => {
      const list = (statuses[task.toolCallId] ??= []);
      if (list[list.length - 1] !== task.status) list.push(task.status);
      maxRunning = Math.max(maxRunning, tasks.entries.filter((e) => e.status === 'running').length);
    },
  });
  const run = async (id: string, args: Partial<TaskArguments> & { agent: string }, signal?: AbortSignal) => {
    await tasks.prepare();
    return tasks.tool!.execute(id, { description: `task ${id}`, prompt: id, ...args }, signal);
  };
  return { tasks, workspace, streamFn, settings, statuses, run, maxRunning: () => maxRunning };
}

const read = async (workspace: Workspace, path: string) => new TextDecoder().decode(await workspace.readFile(workspace.resolve(path)));

describe('explore tasks', () => {
  it('are not offered write tools or the task tool, and a write they attempt is not found', async () => {
    const { run, streamFn, workspace } = setup((request) =>
      request.messages.length === 1 ? { content: [toolCall('write', { path: 'a.txt', content: 'changed' })] } : 'I could not write.',
    );
    const result = await run('t1', { agent: 'explore' });
    const offered = streamFn.requests[0].tools.map((t) => t.name).sort();
    expect(offered).toEqual(['find', 'grep', 'ls', 'read', 'todo']);
    expect(JSON.stringify(streamFn.requests[1].messages)).toContain('Tool write not found');
    expect(await read(workspace, 'a.txt')).toBe('one\n');
    expect(textOf(result)).toContain('I could not write.');
  });

  it('run at most maxConcurrent at once; the others wait as queued', async () => {
    const { run, statuses, maxRunning } = setup(() => ({ content: 'found it', delayMs: 15 }), { settings: { subagents: { maxConcurrent: 2, turnCap: 50, models: [] } } });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((id) => run(id, { agent: 'explore' })));
    expect(results.every((r) => textOf(r).includes('found it'))).toBe(true);
    expect(maxRunning()).toBe(2);
    expect(statuses.e).toEqual(['queued', 'running', 'done']);
  });

  it('all get a result when the run is stopped, running or queued', async () => {
    const { run, tasks } = setup(() => ({ content: 'slow answer', delayMs: 200 }), { settings: { subagents: { maxConcurrent: 1, turnCap: 50, models: [] } } });
    const stop = new AbortController();
    const pending = ['a', 'b', 'c'].map((id) => run(id, { agent: 'explore' }, stop.signal));
    await new Promise((r) => setTimeout(r, 30));
    stop.abort();
    const results = await Promise.all(pending);
    expect(results.map((r) => textOf(r))).toEqual(results.map(() => expect.stringContaining('stopped before it finished')));
    expect(tasks.entries.map((e) => e.status)).toEqual(['aborted', 'aborted', 'aborted']);
  });

  it('stop at the turn cap, the last call with no tools, and say so', async () => {
    const { run, streamFn } = setup((request) => (request.tools.length > 0 ? { content: [toolCall('ls', { path: '.' })] } : 'Partial findings.'), {
      settings: { subagents: { maxConcurrent: 4, turnCap: 2, models: [] } },
    });
    const result = await run('capped', { agent: 'explore' });
    expect(streamFn.requests).toHaveLength(2);
    expect(streamFn.requests[1].tools).toEqual([]);
    expect(textOf(result)).toContain('turn cap (2 model calls)');
    expect(textOf(result)).toContain('Partial findings.');
  });

  it('refuse a model the person did not allow, naming the allowed ones', async () => {
    const { run } = setup(() => 'ok', { settings: { subagents: { maxConcurrent: 4, turnCap: 50, models: ['small-model'] } } });
    await expect(run('m', { agent: 'explore', model: 'big-model' })).rejects.toThrow(/Use one of: small-model/);
  });

  it('refuse an unknown agent, listing the agents', async () => {
    const { run } = setup(() => 'ok');
    await expect(run('x', { agent: 'painter' })).rejects.toThrow(/explore, worker, apply/);
  });
});

describe('worker tasks', () => {
  const editing = (file: string, content: string): ScriptedTurnFactory => (request) =>
    request.messages.length === 1 ? { content: [toolCall('write', { path: file, content })], delayMs: 5 } : `Wrote ${file}.`;

  it('work in their own fork, invisible to the live workspace until merged at their end', async () => {
    let liveDuringRun = '';
    const env = setup((request, info) => {
      if (request.messages.length === 1) return { content: [toolCall('write', { path: 'a.txt', content: `changed by ${firstText(request)}\n` })] };
      return (async () => {
        liveDuringRun = await read(env.workspace, 'a.txt');
        return 'Done.';
      })();
    }, { fork: true });
    const result = await env.run('w1', { agent: 'worker' });
    expect(liveDuringRun).toBe('one\n');
    expect(await read(env.workspace, 'a.txt')).toBe('changed by w1\n');
    expect(textOf(result)).toContain('Files changed (merged into the live workspace): a.txt');
    expect(env.tasks.entries[0]).toMatchObject({ status: 'done', outcome: 'merged', filesChanged: ['a.txt'] });
  });

  it('merge two workers that change different files', async () => {
    const env = setup((request) => editing(firstText(request) === 'w1' ? 'a.txt' : 'b.txt', `by ${firstText(request)}\n`)(request, { turn: 0, model }), { fork: true });
    await Promise.all([env.run('w1', { agent: 'worker' }), env.run('w2', { agent: 'worker' })]);
    expect(await read(env.workspace, 'a.txt')).toBe('by w1\n');
    expect(await read(env.workspace, 'b.txt')).toBe('by w2\n');
  });

  it('apply nothing on a conflict, list it with how to apply, and apply it later from the card', async () => {
    const env = setup((request) => editing('a.txt', `by ${firstText(request)}\n`)(request, { turn: 0, model }), { fork: true });
    const results = await Promise.all([env.run('w1', { agent: 'worker' }), env.run('w2', { agent: 'worker' })]);
    const conflicted = env.tasks.entries.filter((e) => e.status === 'conflict');
    const merged = env.tasks.entries.filter((e) => e.outcome === 'merged');
    expect(conflicted).toHaveLength(1);
    expect(merged).toHaveLength(1);
    const loser = conflicted[0].toolCallId;
    expect(await read(env.workspace, 'a.txt')).toBe(`by ${merged[0].toolCallId}\n`);
    const loserText = textOf(results[loser === 'w1' ? 0 : 1]);
    expect(loserText).toContain('Nothing of this worker was applied');
    expect(loserText).toContain(`agent "apply", task_id "${loser}"`);
    expect(conflicted[0]).toMatchObject({ conflicts: [{ path: 'a.txt' }] });
    await env.tasks.apply(loser);
    expect(await read(env.workspace, 'a.txt')).toBe(`by ${loser}\n`);
    const applied = env.tasks.entries.find((e) => e.toolCallId === loser)!;
    expect(applied).toMatchObject({ status: 'done', outcome: 'applied' });
    expect(applied.pending).toBeUndefined();
  });

  it('run on the live workspace when it cannot fork', async () => {
    const env = setup(editing('a.txt', 'live\n'));
    const result = await env.run('w', { agent: 'worker' });
    expect(await read(env.workspace, 'a.txt')).toBe('live\n');
    expect(env.tasks.entries[0]).toMatchObject({ outcome: 'live', filesChanged: ['a.txt'] });
    expect(textOf(result)).toContain('made in the live workspace');
  });

  it('are refused in read-only mode', async () => {
    const env = setup(() => 'ok', { settings: { approvalMode: 'read-only' } });
    await expect(env.run('w', { agent: 'worker' })).rejects.toThrow(/Only explore tasks run in read-only mode/);
  });
});

describe('the task tool in a session', () => {
  it('gives the parent only the final reply and adds the tasks\' usage to the totals', async () => {
    const settings: Settings = { ...defaultSettings(), apiKey: 'k' };
    const workspace = Workspace.of(createEmbeddedRuntime({ files: { 'a.txt': 'one\n' } }));
    const streamFn = createScriptedStreamFn((request) => {
      const prompt = firstText(request);
      if (prompt === 'look around') {
        const last = request.messages[request.messages.length - 1];
        return last.role === 'toolResult' ? { content: 'parent done', usage: { input: 1, output: 1 } } : { content: [toolCall('task', { description: 'look', prompt: 'SUB', agent: 'explore' }, 'call_task')], usage: { input: 1, output: 1 } };
      }
      expect(request.tools.map((t) => t.name)).not.toContain('task');
      return request.messages.length === 1
        ? { content: [{ type: 'text', text: 'intermediate musing' }, toolCall('read', { path: 'a.txt' })], usage: { input: 100, output: 10 } }
        : { content: 'the conclusion', usage: { input: 200, output: 20 } };
    });
    const controller = new SessionController({ workspace, tools: createCodingTools(workspace), getSettings: () => settings, resolveModel: () => model, streamFn, scheduleUpdate: (fn) => queueMicrotask(fn) });
    const events: string[] = [];
    controller.subscribe((e) => e.type === 'task' && events.push(e.task.status));
    controller.send('look around');
    await controller.idle();
    const parentLast = streamFn.requests.findLast((r) => firstText(r) === 'look around')!;
    const sent = JSON.stringify(parentLast.messages);
    expect(sent).toContain('the conclusion');
    expect(sent).not.toContain('intermediate musing');
    expect(controller.tasks.entries).toHaveLength(1);
    expect(controller.tasks.view('call_task')?.entry.messages.length).toBe(4);
    const view = controller.tasks.view('call_task')!;
    const readCall = view.entry.messages.flatMap((m) => (m.role === 'assistant' ? m.content : [])).find((c) => c.type === 'toolCall');
    expect(readCall && view.cards.get(readCall.id)?.status).toBe('done');
    expect(events).toContain('done');
    expect(controller.totals.input).toBe(1 + 1 + 100 + 200);
    expect(controller.totals.taskCosts).toEqual([expect.objectContaining({ toolCallId: 'call_task', tokens: 330 })]);
  });
});
