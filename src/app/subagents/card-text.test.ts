import { describe, expect, it } from 'vitest';
import type { TaskEntry } from '../../ai/types';
import { taskFacts } from './card-text';

const usage = (cost: number, unknown = false) => ({ input: 1200, output: 340, cacheRead: 800, cacheWrite: 0, cost: { total: cost, ...(unknown ? { unknown } : {}) } });
const entry = (over: Partial<TaskEntry>): TaskEntry => ({
  type: 'task', toolCallId: 'c1', agent: 'worker', description: 'Fix the parser', prompt: 'Fix it', provider: 'anthropic', model: 'm',
  status: 'running', queuedAt: 1_000, startedAt: 2_000, messages: [], toolCalls: 1, usage: usage(0.0123), ...over,
});

describe('taskFacts', () => {
  it('ticks while running and stops at the end', () => {
    expect(taskFacts(entry({}), 14_500).elapsed).toBe('12 s');
    expect(taskFacts(entry({ status: 'done', endedAt: 2_000 + 125_000, outcome: 'merged', filesChanged: ['a.ts', 'b.ts'] }), 999_999)).toEqual({
      status: 'done', elapsed: '2 min 05 s', toolCalls: '1 tool call', tokens: '2.0k in · 340 out', cost: '$0.012', outcome: 'Merged 2 files into the workspace.',
    });
  });

  it('shows a waiting task without a clock, and a reloaded one as interrupted at its last message', () => {
    expect(taskFacts(entry({ status: 'queued', startedAt: undefined }), 50_000)).toMatchObject({ status: 'queued', elapsed: '' });
    const cut = entry({ status: 'aborted', interrupted: true, messages: [{ role: 'user', content: 'Fix it', timestamp: 9_000 }] });
    expect(taskFacts(cut, 999_999)).toMatchObject({ status: 'interrupted', elapsed: '7 s' });
  });

  it('says a conflict applied nothing, and marks a partly unknown cost', () => {
    const facts = taskFacts(entry({ status: 'conflict', endedAt: 3_000, filesChanged: ['a.ts'], toolCalls: 4, usage: usage(0.5, true) }), 0);
    expect(facts).toMatchObject({ status: 'conflict', toolCalls: '4 tool calls', cost: '≥ $0.500', outcome: 'Nothing applied: its changes to 1 file overlap changes made meanwhile.' });
  });
});
