import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message, ToolCall } from '../../ai/types';
import type { ObjectId } from '../../runtime/object-id';
import { snapshotOfFiles, type Tree } from '../../store';
import { memoryReader } from '../../store/objects/trees/files';
import { indexSteps } from './steps';
import { applyEdits, ReplayWorkspace, workspacePath, type StepWorkspace } from './workspace-at-step';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };
const enc = (text: string) => new TextEncoder().encode(text);
const user = (text: string): Message => ({ role: 'user', content: text, timestamp: 1 });
const calls = (...blocks: ToolCall[]): Message => ({ role: 'assistant', content: blocks, provider: 'p', model: 'm', usage, stopReason: 'toolUse', timestamp: 1 } as AssistantMessage);
const call = (id: string, name: string, args: Record<string, unknown>): ToolCall => ({ type: 'toolCall', id, name, arguments: args });
const result = (id: string, isError = false): Message => ({ role: 'toolResult', toolCallId: id, toolName: 'x', content: [], isError, timestamp: 1 });

/** A replay over checkpoints made from `trees` (seq -> files), with every object in memory. */
async function replayOf(messages: Message[], checkpointFiles: Map<number, Record<string, string>>) {
  const trees = new Map<ObjectId, Tree>();
  const blobs = new Map<ObjectId, Uint8Array>();
  const roots = new Map<number, ObjectId>();
  for (const [seq, files] of checkpointFiles) {
    const snapshot = await snapshotOfFiles(new Map(Object.entries(files).map(([p, t]) => [p, enc(t)])));
    for (const [id, tree] of snapshot.objects.trees) trees.set(id, tree);
    for (const [id, data] of snapshot.objects.blobs) blobs.set(id, data);
    roots.set(seq, snapshot.root);
  }
  const steps = indexSteps(messages);
  const reader = memoryReader(trees, blobs);
  const replay = new ReplayWorkspace(reader, steps, messages, { seqs: [...roots.keys()].sort((a, b) => a - b), root: async (seq) => roots.get(seq) });
  return { steps, replay };
}

async function filesAt(replay: ReplayWorkspace, workspace: StepWorkspace, folder = ''): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const entry of await replay.list(workspace, folder)) {
    if (entry.kind === 'dir') Object.assign(out, await filesAt(replay, workspace, entry.path));
    else out[entry.path] = await replay.read(workspace, entry.path);
  }
  return out;
}

describe('ReplayWorkspace', () => {
  const messages: Message[] = [
    user('make it friendlier'), // 0
    calls(call('e1', 'edit', { path: 'app.js', edits: [{ oldText: 'Hello', newText: 'Hi' }] }), call('w1', 'write', { path: '/home/project/lib/new.js', content: 'new\n' })), // 1
    result('e1'), // 2
    result('w1'), // 3
    user('now build it'), // 4
    calls(call('b1', 'bash', { command: 'npm run build > out.txt' })), // 5
    result('b1'), // 6
    calls(call('e2', 'edit', { path: 'app.js', oldText: 'Hi', newText: 'Hey' }), call('e3', 'edit', { path: 'app.js', edits: [{ oldText: 'absent', newText: 'x' }] })), // 7
    result('e2'), // 8
    result('e3', true), // 9
  ];
  const checkpoints = new Map<number, Record<string, string>>([
    [0, { 'app.js': 'Hello\n', 'README.md': '# r\n' }],
    [4, { 'app.js': 'Hi\n', 'README.md': '# r\n', 'lib/new.js': 'new\n' }],
  ]);

  it('gives the exact checkpoint tree at each user message', async () => {
    const { steps, replay } = await replayOf(messages, checkpoints);
    const first = await replay.at(0);
    expect(first.approximate).toBe(false);
    expect(await filesAt(replay, first)).toEqual({ 'README.md': '# r\n', 'app.js': 'Hello\n' });
    const second = await replay.at(steps.findIndex((s) => s.kind === 'user' && s.seq === 4));
    expect(await filesAt(replay, second)).toEqual({ 'lib/new.js': 'new\n', 'README.md': '# r\n', 'app.js': 'Hi\n' });
  });

  it('applies recorded edits and writes on top within a turn, with the step’s own change', async () => {
    const { replay } = await replayOf(messages, checkpoints);
    const afterEdit = await replay.at(1);
    expect(afterEdit.approximate).toBe(false);
    expect(afterEdit.change).toEqual({ kind: 'edit', path: 'app.js', before: 'Hello\n', after: 'Hi\n' });
    expect(await filesAt(replay, afterEdit)).toEqual({ 'README.md': '# r\n', 'app.js': 'Hi\n' });
    const afterWrite = await replay.at(2);
    expect(afterWrite.change).toEqual({ kind: 'write', path: 'lib/new.js', before: null, after: 'new\n' });
    expect(await replay.list(afterWrite, '')).toEqual([
      { name: 'lib', path: 'lib', kind: 'dir' },
      { name: 'README.md', path: 'README.md', kind: 'file' },
      { name: 'app.js', path: 'app.js', kind: 'file' },
    ].sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : 1) : a.kind === 'dir' ? -1 : 1)));
    expect(await filesAt(replay, afterWrite)).toEqual({ 'lib/new.js': 'new\n', 'README.md': '# r\n', 'app.js': 'Hi\n' });
  });

  it('marks the steps after a bash command approximate until the next checkpoint', async () => {
    const more: Message[] = [...messages, user('thanks')]; // 10, with a checkpoint
    const { steps, replay } = await replayOf(more, new Map([...checkpoints, [10, { 'app.js': 'Hey\n', 'out.txt': 'built' }]]));
    const bash = steps.findIndex((s) => s.kind === 'tool' && s.call.name === 'bash');
    const atBash = await replay.at(bash);
    expect(atBash.approximate).toBe(true);
    expect(atBash.change).toEqual({ kind: 'bash', command: 'npm run build > out.txt' });
    const afterEdit = await replay.at(bash + 1);
    expect(afterEdit.approximate).toBe(true);
    expect(await replay.read(afterEdit, 'app.js')).toBe('Hey\n'); // the legacy oldText/newText shape applied
    const failed = await replay.at(bash + 2);
    expect(failed.change).toBeNull(); // a failed edit changed nothing
    expect(await replay.read(failed, 'app.js')).toBe('Hey\n');
    const next = await replay.at(steps.length - 1);
    expect(next.approximate).toBe(false);
    expect(await filesAt(replay, next)).toEqual({ 'app.js': 'Hey\n', 'out.txt': 'built' });
  });

  it('is approximate in a turn without a checkpoint of its own, building on the one before', async () => {
    const { steps, replay } = await replayOf(messages, new Map([[0, checkpoints.get(0)!]]));
    const second = await replay.at(steps.findIndex((s) => s.kind === 'user' && s.seq === 4));
    expect(second.approximate).toBe(true);
    expect(await filesAt(replay, second)).toEqual({ 'lib/new.js': 'new\n', 'README.md': '# r\n', 'app.js': 'Hi\n' });
  });
});

describe('workspacePath and applyEdits', () => {
  it('keeps paths inside the workspace only', () => {
    expect(workspacePath('./src/../a.ts', '/home/project')).toBe('a.ts');
    expect(workspacePath('/home/project/src/a.ts', '/home/project')).toBe('src/a.ts');
    expect(workspacePath('/etc/passwd', '/home/project')).toBeNull();
    expect(workspacePath('../up', '/home/project')).toBeNull();
  });

  it('applies edits in order and refuses one that does not match', () => {
    expect(applyEdits('a b c', { edits: [{ oldText: 'a', newText: 'x' }, { oldText: 'c', newText: 'z' }] })).toBe('x b z');
    expect(applyEdits('a b c', { edits: [{ oldText: 'q', newText: 'x' }] })).toBeNull();
  });
});
