// The app's MCP side against the real client and the mock MCP server (e2e/mock-mcp) on loopback: review, a call in a
// session's run with its result in the next request, progress on the card, a server without CORS, and one killed
// mid-session.
import { afterEach, describe, expect, it } from 'vitest';
import { startMockMcp, type MockMcp, type MockMcpOptions } from '../../../e2e/mock-mcp/server';
import { createScriptedStreamFn, toolCall, type ScriptedTurnInput } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import { browserFetch } from '../../remote/mcp/testing/browser-fetch';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { SessionController } from '../session/controller.svelte';
import { defaultSettings, type Settings } from '../settings/settings';
import { McpServers } from './mcp-servers.svelte';
import { newServerConfig } from './mcp-settings';

let mock: MockMcp | undefined;
let servers: McpServers | undefined;
afterEach(async () => {
  servers?.dispose();
  await mock?.close();
  mock = servers = undefined;
});

async function setup(turns: ScriptedTurnInput[], mockOptions: MockMcpOptions = {}) {
  mock = await startMockMcp(mockOptions);
  let settings: Settings = { ...defaultSettings(), apiKey: 'k' };
  const mcp = new McpServers({
    settings: () => settings,
    store: async (change) => void (settings = { ...settings, ...change }),
    connectOptions: { fetch: browserFetch('http://127.0.0.1:4173') },
  });
  servers = mcp;
  await mcp.save(newServerConfig({ name: 'mock', url: mock.url, headers: [], connectOnStart: true }));
  const streamFn = createScriptedStreamFn(turns);
  const controller = new SessionController({
    workspace: await createEmbeddedRuntime(),
    tools: [],
    externalTools: mcp,
    getSettings: () => settings,
    resolveModel: () => testModel({ provider: 'anthropic' }),
    streamFn,
    scheduleUpdate: (fn) => queueMicrotask(fn),
  });
  return { mcp, controller, streamFn, mock };
}

async function allowEach(controller: SessionController) {
  while (controller.running) {
    const [pending] = controller.approvals;
    if (pending) controller.answerApproval(pending.question.id, { decision: 'allow' });
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('McpServers with the real client', () => {
  it('reviews the mock\'s tools, calls one in a run, and sends its result with the next request', async () => {
    const { mcp, controller, streamFn, mock } = await setup([{ content: [toolCall('mcp__mock__lookup', { query: 'shell', limit: '2' })] }, { content: 'Done.' }]);
    expect(mcp.servers[0].state.state).toBe('connected');
    const review = mcp.review!;
    expect(review.tools.map((t) => t.name)).toContain('mcp__mock__lookup');
    expect(review.changed).toEqual(review.tools.map((t) => t.name));
    await mcp.accept(review.serverId);

    controller.send('look up shell');
    await allowEach(controller);
    await controller.idle();
    expect(mock.calls.map((c) => [c.tool, c.args])).toEqual([['lookup', { query: 'shell', limit: 2 }]]);
    expect(JSON.stringify(streamFn.requests[1].messages)).toContain('found 2 for shell');
    expect(mcp.promptCommands().map((c) => c.name)).toEqual(['mcp:mock:review']);
  });

  it('shows the progress a tool reports on its card', async () => {
    const { mcp, controller } = await setup([{ content: [toolCall('mcp__mock__progress', {})] }, { content: 'Done.' }]);
    await mcp.accept(mcp.review!.serverId);
    const seen: string[] = [];
    const stop = setInterval(() => {
      const card = [...controller.cards.values()][0];
      if (card?.partialOutput && seen.at(-1) !== card.partialOutput) seen.push(card.partialOutput);
    }, 1);
    controller.send('go');
    await allowEach(controller);
    await controller.idle();
    clearInterval(stop);
    expect(seen.join('\n')).toMatch(/step/);
  });

  it('a server without CORS fails with the plain message', async () => {
    const { mcp } = await setup([], { cors: false });
    const state = mcp.servers[0].state;
    expect(state.state).toBe('failed');
    expect(state.state === 'failed' && state.reason).toContain('does not allow browser clients');
    expect(mcp.review).toBeNull();
  });

  it('a server killed mid-session gives the call an error result, and the run goes on', async () => {
    const { mcp, controller, streamFn, mock } = await setup([{ content: [toolCall('mcp__mock__lookup', { query: 'x' })] }, { content: 'It is down; carrying on.' }]);
    await mcp.accept(mcp.review!.serverId);
    await mock.kill();
    controller.send('look up x');
    await allowEach(controller);
    await controller.idle();
    const result = controller.messages.find((m) => m.role === 'toolResult');
    expect(result && 'isError' in result && result.isError).toBe(true);
    expect(streamFn.requests).toHaveLength(2);
    expect(controller.messages.at(-1)?.role).toBe('assistant');
  });
});
