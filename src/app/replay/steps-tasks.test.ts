// Subagent tasks in the replay: a task call is a group step holding the task's own steps, and a worker's merged
// writes and edits are in the workspace from its step on.
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, TaskEntry, ToolCall } from '../../ai/types';
import type { ObjectId } from '../../runtime/object-id';
import { snapshotOfFiles, type Tree } from '../../store';
import { memoryReader } from '../../store/objects/trees/files';
import { task } from '../../store/testing/messages';
import { stepLabel } from './step-label';
import { indexSteps } from './steps';
import { ReplayWorkspace } from './workspace-at-step';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const enc = (text: string) => new TextEncoder().encode(text);
const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 1 });
const reply = (content: AssistantMessage['content']): Message => ({ role: 'assistant', content, provider: 'p', model: 'm', usage, stopReason: 'stop', timestamp: 1 });
const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ type: 'toolCall', id, name, arguments: args });
const result = (id: string, isError = false): Message => ({ role: 'toolResult', toolCallId: id, toolName: 'x', content: [], isError, timestamp: 1 });

const messages: Message[] = [
  user('explore, then fix'), // 0
  reply([call('t1', 'task', { description: 'Find the greeting' }), call('t2', 'task', { description: 'Make it friendlier' })]), // 1
  result('t1'), // 2
  result('t2'), // 3
  reply([{ type: 'text', text: 'Done.' }]), // 4
];
const explore = task('t1', { description: 'Find the greeting' });
const workerMessages: Message[] = [
  user('Make it friendlier'),
  reply([{ type: 'text', text: 'Editing.' }, call('e1', 'edit', { path: 'app.js', edits: [{ oldText: 'Hello', newText: 'Hi' }] }), call('w1', 'write', { path: 'notes.md', content: 'friendly\n' })]),
  result('e1'),
  result('w1'),
  reply([{ type: 'text', text: 'Made it friendlier.' }]),
];
const worker = (extra: Partial<TaskEntry> = {}) =>
  task('t2', { agent: 'worker', description: 'Make it friendlier', queuedAt: 11, messages: workerMessages, filesChanged: ['app.js', 'notes.md'], outcome: 'merged', ...extra });

async function workspaceOf(tasks: TaskEntry[]) {
  const snapshot = await snapshotOfFiles(new Map([['app.js', enc('Hello\n')]]));
  const trees = new Map<ObjectId, Tree>(snapshot.objects.trees);
  const reader = memoryReader(trees, snapshot.objects.blobs);
  const steps = indexSteps(messages, [], tasks);
  return { steps, replay: new ReplayWorkspace(reader, steps, messages, { seqs: [0], root: async () => snapshot.root }) };
}

describe('replay steps with subagent tasks', () => {
  it('makes a group step of each task call, holding the task’s replies and tool calls', () => {
    const steps = indexSteps(messages, [], [explore, worker()]);
    expect(steps.map((s) => `${s.kind}@${s.seq}`)).toEqual(['user@0', 'subagent@1', 'subagent@1', 'assistant@4']);
    const group = steps[2];
    if (group.kind !== 'subagent') throw new Error('not a group');
    expect(group.title).toBe('Make it friendlier');
    expect(group.resultSeq).toBe(3);
    expect(group.steps.map((s) => s.kind)).toEqual(['assistant', 'tool', 'tool', 'assistant']);
    expect(stepLabel(group, messages)).toBe('Subagent: Make it friendlier');
    expect(group.steps.map((s) => stepLabel(s, group.task.messages))).toEqual(['Editing.', 'edit app.js', 'write notes.md', 'Made it friendlier.']);
  });

  it('leaves a task call with no recorded task a plain tool step', () => {
    expect(indexSteps(messages, [], [explore]).map((s) => s.kind)).toEqual(['user', 'subagent', 'tool', 'assistant']);
  });

  it("applies a merged worker's writes and edits at its step, exactly", async () => {
    const { steps, replay } = await workspaceOf([explore, worker()]);
    const atExplore = await replay.at(1);
    expect(atExplore.approximate).toBe(false);
    expect(atExplore.overlay.size).toBe(0);
    const atWorker = await replay.at(2);
    expect(atWorker.approximate).toBe(false);
    expect(Object.fromEntries(atWorker.overlay)).toEqual({ 'app.js': 'Hi\n', 'notes.md': 'friendly\n' });
    expect(atWorker.change).toEqual({ kind: 'write', path: 'notes.md', before: null, after: 'friendly\n' });
    expect(await replay.read(await replay.at(steps.length - 1), 'app.js')).toBe('Hi\n');
  });

  it('applies nothing of a worker whose changes were discarded or conflicted, and is approximate for one applied later', async () => {
    for (const outcome of ['discarded', undefined] as const) {
      const { replay } = await workspaceOf([explore, worker({ outcome, status: outcome ? 'done' : 'conflict' })]);
      const at = await replay.at(2);
      expect(at.overlay.size).toBe(0);
      expect(at.approximate).toBe(false);
    }
    const { replay } = await workspaceOf([explore, worker({ outcome: 'applied' })]);
    expect((await replay.at(2)).approximate).toBe(true);
  });

  it("marks a worker that ran commands approximate, as a bash step is", async () => {
    const ran = [...workerMessages.slice(0, 4), reply([call('b1', 'bash', { command: 'npm test' })]), result('b1')];
    const { replay } = await workspaceOf([explore, worker({ messages: ran, outcome: 'live' })]);
    const at = await replay.at(2);
    expect(at.approximate).toBe(true);
    expect(at.overlay.get('app.js')).toBe('Hi\n');
  });
});
