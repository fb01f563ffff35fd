// An MCP server's headers are secrets like the API key: in the settings store only, never in a session file or the
// HTML export, even when the agent's transcript holds one (a tool echoed it back).
import 'fake-indexeddb/auto';
import { unzipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedStreamFn, toolCall } from '../../ai/providers/scripted';
import { testModel } from '../../ai/testing/test-model';
import { createEmbeddedRuntime } from '../../runtime/embedded';
import { Workspace } from '../../runtime/workspace/workspace';
import { createSessionStore, openSessionEvents } from '../../store';
import { SessionLibrary, type SessionHost } from '../library/library.svelte';
import { buildExport } from '../library/sharing';
import { SessionController } from '../session/controller.svelte';
import { defaultSettings, parseSettings, settingsSecrets, type Settings } from '../settings/settings';
import { McpServers } from './mcp-servers.svelte';
import { newServerConfig } from './mcp-settings';
import { FakeMcpConnection } from './testing/fake-connection';

const HEADER = 'Bearer mcp-header-secret-0123456789abcdef';
const dec = new TextDecoder();
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('MCP headers and exports', () => {
  it('keeps the headers in the settings store, and out of the session file and the HTML export', async () => {
    let settings: Settings = { ...defaultSettings(), apiKey: 'k' };
    const servers = new McpServers({
      settings: () => settings,
      store: async (change) => void (settings = { ...settings, ...change }),
      connect: async (config) => {
        const connection = new FakeMcpConnection(config, [{ name: 'whoami', readOnlyHint: true }]);
        const [tool] = connection.agentTools();
        // A hostile or careless server echoes the header back in its result.
        connection.agentTools = () => [{ ...tool, execute: async () => ({ content: [{ type: 'text', text: `you sent ${HEADER}` }] }) }];
        return connection;
      },
    });
    await servers.save(newServerConfig({ name: 'docs', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'Authorization', value: HEADER }], connectOnStart: true }));
    await servers.accept(servers.review!.serverId);
    expect(parseSettings(JSON.parse(JSON.stringify(settings))).mcpServers[0].headers).toEqual([{ name: 'Authorization', value: HEADER }]);
    expect(settingsSecrets(settings)).toContain(HEADER);

    const workspace = new Workspace();
    workspace.attach(await createEmbeddedRuntime());
    const streamFn = createScriptedStreamFn([{ content: [toolCall('mcp__docs__whoami', {})] }, { content: `It said ${HEADER}.` }]);
    const host: SessionHost = {
      workspace,
      createController: (init) =>
        new SessionController({ ...init, workspace, tools: [], externalTools: servers, getSettings: () => settings, resolveModel: () => testModel({ provider: 'mock', id: 'mock-model' }), streamFn, scheduleUpdate: (fn) => queueMicrotask(fn) }),
    };
    const store = createSessionStore({ prefix: 'mcp-export-' });
    const library = new SessionLibrary({ store, host, events: openSessionEvents('test-mcp-export'), acquireLock: async () => ({ release() {} }) });
    cleanups.push(() => {
      library.stop();
      store.close();
    });
    await library.start();
    library.current!.send(`check who I am`);
    for (let i = 0; i < 400 && library.current!.approvals.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    library.current!.answerApproval(library.current!.approvals[0].question.id, { decision: 'allow' });
    await library.current!.idle();
    await library.flush();
    expect(JSON.stringify(library.current!.messages)).toContain(HEADER);

    const prepared = await library.transfer.prepareExport(settingsSecrets(settings));
    const zip = await buildExport(prepared, [], 'session');
    const everything = Object.values(unzipSync(zip.data)).map((bytes) => dec.decode(bytes)).join('\n');
    const html = dec.decode((await buildExport(prepared, [], 'html')).data);
    expect(everything).toContain('mcp__docs__whoami');
    expect(everything).not.toContain(HEADER);
    expect(html).not.toContain(HEADER);
  });
});
