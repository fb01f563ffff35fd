// MCP tools in a session's runs: named mcp__<server>__<tool> in the registry, offered only when active, asking
// before each call until always-allowed, and a list change applied from the next turn on.
import { describe, expect, it } from 'vitest';
import { createScriptedStreamFn, toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { SessionController } from '../session/controller.svelte';
import { defaultSettings, type Settings } from '../settings/settings';
import { McpServers } from './mcp-servers.svelte';
import { newServerConfig } from './mcp-settings';
import { FakeMcpConnection } from './testing/fake-connection';

async function setup(turns: ScriptedTurnInput[], overrides: Partial<Settings> = {}) {
  let settings: Settings = { ...defaultSettings(), apiKey: 'k', ...overrides };
  const connections: FakeMcpConnection[] = [];
  const servers = new McpServers({
    settings: () => settings,
    store: async (change) => void (settings = { ...settings, ...change }),
    connect: async (config) => {
      const c = new FakeMcpConnection(config, [{ name: 'search', readOnlyHint: true }, { name: 'publish' }]);
      connections.push(c);
      return c;
    },
  });
  await servers.save(newServerConfig({ name: 'docs', url: 'http://127.0.0.1:9/mcp', headers: [], connectOnStart: true }));
  await servers.accept(servers.review!.serverId);
  const streamFn = createScriptedStreamFn(turns);
  const controller = new SessionController({
    workspace: await createEmbeddedRuntime(),
    tools: [],
    externalTools: servers,
    getSettings: () => settings,
    resolveModel: () => testModel({ provider: 'anthropic' }),
    streamFn,
    scheduleUpdate: (fn) => queueMicrotask(fn),
  });
  return { controller, streamFn, servers, connection: connections[0], settings: () => settings };
}

const waitFor = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const lastToolResultText = (controller: SessionController) => {
  const results = controller.messages.filter((m) => m.role === 'toolResult');
  return JSON.stringify(results[results.length - 1]);
};

describe('MCP tools in a session', () => {
  it('offers the active tools under their registry names, asks, calls the server and sends the result on', async () => {
    const { controller, streamFn, connection } = await setup([{ content: [toolCall('mcp__docs__search', { q: 'svelte' })] }, { content: 'Found it.' }]);
    controller.send('look it up');
    await waitFor(() => controller.approvals.length === 1, 'the approval');
    const [question] = controller.approvals;
    expect([question.question.toolName, question.question.server, question.question.reason.kind]).toEqual(['mcp__docs__search', 'docs', 'mcp-tool']);
    expect(controller.card(question.question.toolCallId)?.toolName).toBe('mcp__docs__search');
    controller.answerApproval(question.question.id, { decision: 'allow' });
    await controller.idle();

    expect(streamFn.requests[0].tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__docs__search', 'mcp__docs__publish']);
    expect(connection.calls).toEqual([{ name: 'search', args: { q: 'svelte' } }]);
    expect(JSON.stringify(streamFn.requests[1].messages)).toContain('search done');
  });

  it('answers a switched-off MCP tool with "not found", like a built-in', async () => {
    const { controller, servers, connection } = await setup([{ content: [toolCall('mcp__docs__publish', {})] }, { content: 'OK.' }]);
    await servers.setToolActive('mcp__docs__publish', false);
    controller.send('publish');
    await controller.idle();
    expect(lastToolResultText(controller)).toContain('Tool mcp__docs__publish not found');
    expect(connection.calls).toEqual([]);
  });

  it('in read-only mode gives the model only the read-only-hinted tools', async () => {
    const { controller, streamFn } = await setup([{ content: 'Nothing to change.' }], { approvalMode: 'read-only' });
    controller.send('look');
    await controller.idle();
    expect(streamFn.requests[0].tools.map((t) => t.name).filter((n) => n.startsWith('mcp__'))).toEqual(['mcp__docs__search']);
  });

  it('"Always allow this server" lets its other tools through for the rest of the session', async () => {
    const { controller, connection } = await setup([
      { content: [toolCall('mcp__docs__search', { q: 'a' })] },
      { content: [toolCall('mcp__docs__publish', {})] },
      { content: 'Done.' },
    ]);
    controller.send('go');
    await waitFor(() => controller.approvals.length === 1, 'the approval');
    controller.answerApproval(controller.approvals[0].question.id, { decision: 'always-server' });
    await controller.idle();
    expect(connection.calls.map((c) => c.name)).toEqual(['search', 'publish']);
  });

  it('a tool list changed by the server applies from the next run on', async () => {
    const { controller, streamFn, connection, servers } = await setup([{ content: 'One.' }, { content: 'Two.' }]);
    controller.send('first');
    await controller.idle();
    connection.setTools([{ name: 'search', readOnlyHint: true }, { name: 'publish' }, { name: 'archive' }]);
    await servers.accept(servers.review!.serverId);
    controller.send('second');
    await controller.idle();
    expect(streamFn.requests.map((r) => r.tools.filter((t) => t.name.startsWith('mcp__')).length)).toEqual([2, 3]);
  });

  it('a tool list changed during a run applies from its next model call: the new tool is offered and found', async () => {
    const { controller, streamFn, connection, servers } = await setup([
      { content: [toolCall('mcp__docs__search', { q: 'a' })] },
      { content: [toolCall('mcp__docs__archive', {})] },
      { content: 'Done.' },
    ]);
    controller.send('go');
    await waitFor(() => controller.approvals.length === 1, 'the first approval');
    connection.setTools([{ name: 'search', readOnlyHint: true }, { name: 'publish' }, { name: 'archive' }]);
    await servers.accept(servers.review!.serverId);
    controller.answerApproval(controller.approvals[0].question.id, { decision: 'allow' });
    await waitFor(() => controller.approvals.length === 1 && controller.approvals[0].question.toolName === 'mcp__docs__archive', 'the second approval');
    controller.answerApproval(controller.approvals[0].question.id, { decision: 'allow' });
    await controller.idle();

    expect(streamFn.requests.map((r) => r.tools.filter((t) => t.name.startsWith('mcp__')).length)).toEqual([2, 3, 3]);
    expect(connection.calls.map((c) => c.name)).toEqual(['search', 'archive']);
    expect(streamFn.requests[1].systemPrompt).toContain('mcp__docs__archive');
  });
});
