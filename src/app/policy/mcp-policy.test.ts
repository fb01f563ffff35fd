import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import type { AgentTool } from '../../agent/types';
import { activeMcpToolNames, ToolPolicy, type ApprovalAnswer, type ApprovalQuestion, type McpToolTraits, type PolicySettings } from './policy';

const MCP_TOOLS: Record<string, McpToolTraits> = {
  mcp__docs__search: { server: 'docs', readOnlyHint: true },
  mcp__docs__publish: { server: 'docs', readOnlyHint: false },
  mcp__tracker__create: { server: 'tracker', readOnlyHint: false },
};

const tool = (name: string): AgentTool => ({ name, label: name, description: name, parameters: Type.Object({}), execute: async () => ({ content: [] }) });

let nextId = 0;
const call = (name: string, args: Record<string, unknown> = {}) => ({
  toolCall: { type: 'toolCall' as const, id: `m${++nextId}`, name, arguments: args },
  args,
  tool: tool(name),
});

function setup(settings: PolicySettings, answers: ApprovalAnswer[] = []) {
  const asked: ApprovalQuestion[] = [];
  const policy = new ToolPolicy({
    workdir: '/home/project',
    getSettings: () => settings,
    mcpToolOf: (name) => MCP_TOOLS[name],
    ask: async (q) => {
      asked.push(q);
      const answer = answers.shift();
      if (!answer) throw new Error('unexpected question');
      return answer;
    },
  });
  return { policy, asked };
}

const auto: PolicySettings = { approvalMode: 'auto', protectedPaths: [] };

describe('the policy for MCP tools', () => {
  it('asks before every MCP call in auto mode, read-only hints included, and names the server', async () => {
    const { policy, asked } = setup(auto, [{ decision: 'allow' }, { decision: 'allow' }]);
    expect(await policy.beforeToolCall(call('bash', { command: 'ls' }))).toBeUndefined();
    expect(await policy.beforeToolCall(call('mcp__docs__search'))).toBeUndefined();
    expect(await policy.beforeToolCall(call('mcp__docs__search'))).toBeUndefined();
    expect(asked.map((q) => [q.toolName, q.reason.kind, q.server, q.canAlwaysAllow])).toEqual([
      ['mcp__docs__search', 'mcp-tool', 'docs', true],
      ['mcp__docs__search', 'mcp-tool', 'docs', true],
    ]);
  });

  it('"Always allow this tool" stops asking for that tool only', async () => {
    const { policy, asked } = setup(auto, [{ decision: 'always' }, { decision: 'allow' }]);
    await policy.beforeToolCall(call('mcp__docs__search'));
    await policy.beforeToolCall(call('mcp__docs__search', { q: 'other' }));
    await policy.beforeToolCall(call('mcp__docs__publish'));
    expect(asked.map((q) => q.toolName)).toEqual(['mcp__docs__search', 'mcp__docs__publish']);
  });

  it('"Always allow this server" stops asking for all its tools, not for another server\'s', async () => {
    const { policy, asked } = setup(auto, [{ decision: 'always-server' }, { decision: 'deny' }]);
    await policy.beforeToolCall(call('mcp__docs__search'));
    expect(await policy.beforeToolCall(call('mcp__docs__publish'))).toBeUndefined();
    const denied = await policy.beforeToolCall(call('mcp__tracker__create'));
    expect(denied).toMatchObject({ block: true });
    expect(asked.map((q) => q.toolName)).toEqual(['mcp__docs__search', 'mcp__tracker__create']);
  });

  it('blocks MCP tools without a read-only hint in read-only mode, and still asks for the hinted ones', async () => {
    const { policy, asked } = setup({ approvalMode: 'read-only', protectedPaths: [] }, [{ decision: 'allow' }]);
    const blocked = await policy.beforeToolCall(call('mcp__docs__publish'));
    expect(blocked).toMatchObject({ block: true });
    expect(blocked && blocked.reason).toContain('read-only');
    expect(await policy.beforeToolCall(call('mcp__docs__search'))).toBeUndefined();
    expect(asked.map((q) => q.toolName)).toEqual(['mcp__docs__search']);
  });

  it('plan mode, like read-only, keeps only the read-only-hinted MCP tools, which still ask', async () => {
    const { policy, asked } = setup({ approvalMode: 'plan', protectedPaths: [] }, [{ decision: 'allow' }]);
    expect(await policy.beforeToolCall(call('mcp__tracker__create'))).toMatchObject({ block: true });
    expect(await policy.beforeToolCall(call('mcp__docs__search'))).toBeUndefined();
    expect(asked.map((q) => q.toolName)).toEqual(['mcp__docs__search']);
    expect(activeMcpToolNames([{ name: 'mcp__docs__search', readOnlyHint: true }, { name: 'mcp__tracker__create', readOnlyHint: false }], ['mcp__docs__search', 'mcp__tracker__create'], 'plan')).toEqual(['mcp__docs__search']);
  });

  it('an "always" for a coding tool does not allow an MCP tool of the same session', async () => {
    const { policy, asked } = setup({ approvalMode: 'ask', protectedPaths: [] }, [{ decision: 'always' }, { decision: 'allow' }]);
    await policy.beforeToolCall(call('bash', { command: 'ls' }));
    await policy.beforeToolCall(call('mcp__tracker__create'));
    expect(asked.map((q) => q.reason.kind)).toEqual(['ask-mode', 'mcp-tool']);
  });
});

describe('activeMcpToolNames', () => {
  const tools = Object.entries(MCP_TOOLS).map(([name, t]) => ({ name, readOnlyHint: t.readOnlyHint }));

  it('offers the switched-on tools, and in read-only mode only the read-only-hinted ones', () => {
    const on = ['mcp__docs__search', 'mcp__docs__publish'];
    expect(activeMcpToolNames(tools, on, 'auto')).toEqual(on);
    expect(activeMcpToolNames(tools, on, 'read-only')).toEqual(['mcp__docs__search']);
    expect(activeMcpToolNames(tools, [], 'auto')).toEqual([]);
  });
});
