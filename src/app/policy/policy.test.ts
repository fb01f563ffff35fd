import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { AgentTool } from '../../agent/types';
import { activeToolNames, protectedPatternFor, ToolPolicy, type ApprovalAnswer, type ApprovalQuestion, type PolicySettings } from './policy';
import { WRITING_TASK_TRAITS } from '../../tools/catalog';

const tool = (name: string): AgentTool => ({
  name,
  label: name,
  description: name,
  parameters: Type.Object({}),
  execute: async () => ({ content: [] }),
});

let nextId = 0;
function call(name: string, args: Record<string, unknown>) {
  return { toolCall: { type: 'toolCall' as const, id: `c${++nextId}`, name, arguments: args }, args, tool: tool(name) };
}

function setup(settings: PolicySettings, answers: ApprovalAnswer[] = []) {
  const asked: ApprovalQuestion[] = [];
  const policy = new ToolPolicy({
    workdir: '/home/project',
    getSettings: () => settings,
    ask: async (q) => {
      asked.push(q);
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected question');
      return answer;
    },
  });
  return { policy, asked };
}

const defaults: PolicySettings = { approvalMode: 'auto', protectedPaths: ['.git/**', '.env*'] };

describe('ToolPolicy', () => {
  it('runs everything without asking in auto mode', async () => {
    const { policy, asked } = setup(defaults);
    expect(await policy.beforeToolCall(call('bash', { command: 'rm -rf src' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('write', { path: 'a.txt', content: 'x' }))).toBeUndefined();
    expect(asked).toHaveLength(0);
  });

  it('asks before bash, write and edit in ask mode but lets reads through', async () => {
    const { policy, asked } = setup({ ...defaults, approvalMode: 'ask' }, [{ decision: 'allow' }, { decision: 'allow' }]);
    expect(await policy.beforeToolCall(call('read', { path: 'a.txt' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('grep', { pattern: 'x' }))).toBeUndefined();
    expect(asked).toHaveLength(0);
    expect(await policy.beforeToolCall(call('bash', { command: 'ls' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('edit', { path: 'a.txt', edits: [] }))).toBeUndefined();
    expect(asked.map((q) => [q.toolName, q.reason.kind, q.canAlwaysAllow])).toEqual([
      ['bash', 'ask-mode', true],
      ['edit', 'ask-mode', true],
    ]);
  });

  it('passes the denial and the person\'s reason to the model', async () => {
    const { policy } = setup({ ...defaults, approvalMode: 'ask' }, [{ decision: 'deny', reason: 'not on main' }]);
    const result = await policy.beforeToolCall(call('bash', { command: 'git push' }));
    expect(result).toMatchObject({ block: true });
    expect(result && result.reason).toContain('not on main');
    expect(result && result.reason).toContain('denied');
  });

  it('remembers "always allow" for that tool only', async () => {
    const { policy, asked } = setup({ ...defaults, approvalMode: 'ask' }, [{ decision: 'always' }, { decision: 'allow' }]);
    await policy.beforeToolCall(call('bash', { command: 'ls' }));
    await policy.beforeToolCall(call('bash', { command: 'pwd' }));
    await policy.beforeToolCall(call('write', { path: 'b', content: '' }));
    expect(asked.map((q) => q.toolName)).toEqual(['bash', 'write']);
    expect(policy.alwaysAllowedTools).toEqual(['bash']);
  });

  it('always asks before writing protected paths, whatever the mode and earlier "always" answers', async () => {
    const { policy, asked } = setup(defaults, [{ decision: 'allow' }, { decision: 'deny' }, { decision: 'allow' }]);
    await policy.beforeToolCall(call('write', { path: '.env.local', content: 'KEY=1' }));
    const denied = await policy.beforeToolCall(call('edit', { path: '/home/project/.git/config', edits: [] }));
    await policy.beforeToolCall(call('write', { path: 'sub/../.env', content: '' }));
    expect(denied).toMatchObject({ block: true });
    expect(asked.map((q) => q.reason)).toEqual([
      { kind: 'protected-path', path: '.env.local', pattern: '.env*' },
      { kind: 'protected-path', path: '/home/project/.git/config', pattern: '.git/**' },
      { kind: 'protected-path', path: 'sub/../.env', pattern: '.env*' },
    ]);
    expect(asked.every((q) => !q.canAlwaysAllow)).toBe(true);
    // Reading a protected file is fine.
    expect(await policy.beforeToolCall(call('read', { path: '.env' }))).toBeUndefined();
  });

  it('blocks writing tools in read-only mode and offers every reading tool, switched on or not', async () => {
    const { policy } = setup({ ...defaults, approvalMode: 'read-only' });
    expect(await policy.beforeToolCall(call('bash', { command: 'ls' }))).toMatchObject({ block: true });
    expect(await policy.beforeToolCall(call('read', { path: 'a' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('grep', { pattern: 'x' }))).toBeUndefined();
    // Issue 13: read-only mode offered only the reading tools that happened to be switched on (often just read).
    // The todo list changes no file, so looking-only modes keep it.
    expect(activeToolNames(['read', 'bash', 'edit', 'write'], 'read-only')).toEqual(['read', 'grep', 'find', 'ls', 'todo']);
    expect(activeToolNames(['read', 'bash'], 'ask')).toEqual(['read', 'bash']);
  });

  it('offers only the reading tools and todo in plan mode, and blocks any other call a model makes anyway', async () => {
    expect(activeToolNames(['read', 'bash', 'edit', 'write', 'todo'], 'plan')).toEqual(['read', 'grep', 'find', 'ls', 'todo']);
    // Switched off or not: the plan needs them.
    expect(activeToolNames(['bash'], 'plan')).toEqual(['read', 'grep', 'find', 'ls', 'todo']);
    const { policy, asked } = setup({ ...defaults, approvalMode: 'plan' });
    for (const [name, args] of [['bash', { command: 'ls' }], ['write', { path: 'a', content: '' }], ['edit', { path: 'a', edits: [] }], ['mcp__x__y', {}]] as const) {
      const verdict = await policy.beforeToolCall(call(name, args));
      expect(verdict).toMatchObject({ block: true });
      expect(verdict && 'reason' in verdict ? verdict.reason : '').toContain('Plan mode');
    }
    expect(await policy.beforeToolCall(call('read', { path: 'a' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('todo', { todos: [] }))).toBeUndefined();
    expect(asked).toHaveLength(0);
  });

  it('pauses the third identical call in a row after two failures and asks', async () => {
    const { policy, asked } = setup(defaults, [{ decision: 'deny' }]);
    const fail = async (c: ReturnType<typeof call>) => {
      await policy.afterToolCall({ toolCall: c.toolCall, isError: true, result: { content: [{ type: 'text', text: 'exit 1' }] } as never });
    };
    const first = call('bash', { command: 'npm test' });
    expect(await policy.beforeToolCall(first)).toBeUndefined();
    await fail(first);
    const second = call('bash', { command: 'npm test' });
    expect(await policy.beforeToolCall(second)).toBeUndefined();
    await fail(second);
    const third = call('bash', { command: 'npm test' });
    expect(await policy.beforeToolCall(third)).toMatchObject({ block: true });
    expect(asked).toHaveLength(1);
    expect(asked[0].reason).toEqual({ kind: 'doom-loop', repeats: 3, lastError: 'exit 1' });
  });

  it('does not count a different call or a success as a repeat', async () => {
    const { policy, asked } = setup(defaults);
    for (const [command, isError] of [['a', true], ['a', false], ['a', true], ['b', true], ['a', true]] as const) {
      const c = call('bash', { command });
      await policy.beforeToolCall(c);
      await policy.afterToolCall({ toolCall: c.toolCall, isError, result: { content: [] } });
    }
    expect(asked).toHaveLength(0);
  });

  it('fails closed when the question is aborted or cannot be shown', async () => {
    const controller = new AbortController();
    const policy = new ToolPolicy({
      workdir: '/home/project',
      getSettings: () => ({ ...defaults, approvalMode: 'ask' }),
      ask: () => new Promise(() => {}),
    });
    const pending = policy.beforeToolCall(call('bash', { command: 'ls' }), controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ block: true });

    const broken = new ToolPolicy({
      workdir: '/home/project',
      getSettings: () => ({ ...defaults, approvalMode: 'ask' }),
      ask: () => Promise.reject(new Error('no UI')),
    });
    expect(await broken.beforeToolCall(call('bash', { command: 'ls' }))).toMatchObject({ block: true });
  });

  it('matches protected patterns against workspace-relative paths', () => {
    expect(protectedPatternFor('/home/project/.git/HEAD', '/home/project', ['.git/**'])).toBe('.git/**');
    expect(protectedPatternFor('config/.env.production', '/home/project', ['.env*'])).toBe('.env*');
    expect(protectedPatternFor('src/env.ts', '/home/project', ['.git/**', '.env*'])).toBeUndefined();
  });
});

describe('ToolPolicy: tools whose traits depend on the call (the task tool)', () => {
  const taskPolicy = (mode: PolicySettings['approvalMode'], answers: ApprovalAnswer[] = []) => {
    const asked: ApprovalQuestion[] = [];
    const policy = new ToolPolicy({
      workdir: '/home/project',
      getSettings: () => ({ ...defaults, approvalMode: mode }),
      ask: async (q) => (asked.push(q), answers.shift() ?? { decision: 'deny' }),
      callTraitsOf: (name, args) => (name === 'task' && (args as { agent?: string }).agent === 'worker' ? WRITING_TASK_TRAITS : undefined),
    });
    return { policy, asked };
  };

  it('asks once for a worker task in ask mode, never for an explore task', async () => {
    const { policy, asked } = taskPolicy('ask', [{ decision: 'allow' }]);
    expect(await policy.beforeToolCall(call('task', { agent: 'explore' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('task', { agent: 'worker' }))).toBeUndefined();
    expect(asked.map((q) => q.reason.kind)).toEqual(['ask-mode']);
  });

  it('blocks a worker task in read-only and plan mode, and lets an explore task through', async () => {
    for (const mode of ['read-only', 'plan'] as const) {
      const { policy } = taskPolicy(mode);
      expect(await policy.beforeToolCall(call('task', { agent: 'worker' }))).toMatchObject({ block: true });
      expect(await policy.beforeToolCall(call('task', { agent: 'explore' }))).toBeUndefined();
    }
  });
});
