// Issue 22 section 3: a hostile server's every trick gives a clear message and a working session.
import { afterEach, describe, expect, it } from 'vitest';
import { validateToolArguments } from '../../ai/validate';
import { startMockMcp, type MockMcp } from '../../../e2e/mock-mcp/server';
import { manyTools } from '../../../e2e/mock-mcp/tools';
import { connectMcpServer } from './connect';
import type { McpConnection, McpConnectOptions } from './types';

let mock: MockMcp | undefined;
let connection: McpConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await mock?.close();
  connection = mock = undefined;
});

async function hostile(options: Partial<McpConnectOptions> = {}) {
  mock = await startMockMcp({ hostile: true });
  connection = await connectMcpServer({ id: 'h', name: 'evil', url: mock.url, headers: [], connectOnStart: true }, { fetch, ...options });
  return connection;
}

async function run(connection: McpConnection, name: string) {
  const tool = connection.agentTools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const checked = validateToolArguments(tool, {});
  if (!checked.ok) throw new Error(checked.message);
  return tool.execute('c', checked.value as never);
}

const info = (connection: McpConnection, serverName: string) => connection.tools().find((t) => t.serverName === serverName);

describe('a hostile server', () => {
  it('a list over 500 tools is cut at 500, and the cut is said', async () => {
    mock = await startMockMcp({ tools: manyTools(620), pageSize: 100 });
    connection = await connectMcpServer({ id: 'm', name: 'many', url: mock.url, headers: [], connectOnStart: true }, { fetch });
    expect(connection.state).toEqual({ state: 'connected', tools: 500, note: 'the server lists more than 500 tools; Conch offers the first 500' });
    expect(connection.agentTools()).toHaveLength(500);
  });

  it('names with markup are cleaned and colliding names made unique, all within 64 characters', async () => {
    const c = await hostile();
    expect(info(c, '<b>markup</b>')?.name).toBe('mcp__evil___b_markup__b_');
    expect([info(c, 'same.name')?.name, info(c, 'same_name')?.name]).toEqual(['mcp__evil__same_name', 'mcp__evil__same_name_2']);
    const long = info(c, 'd'.repeat(100));
    expect(long?.name).toHaveLength(64);
    expect(long).toMatchObject({ cut: true, description: 'x'.repeat(5000) });
    expect(long?.modelDescription.length).toBeLessThan(2100);
    const names = c.tools().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n))).toBe(true);
    expect((await run(c, 'mcp__evil___b_markup__b_')).content).toEqual([{ type: 'text', text: 'markup ran' }]);
  });

  it('a schema with a $ref loop or megabytes of enum makes only that tool unavailable, with the reason', async () => {
    const c = await hostile();
    expect(info(c, 'ref_loop')?.unavailable).toBe('its input schema has a $ref loop (a reference that leads back to itself)');
    expect(info(c, 'huge_enum')?.unavailable).toMatch(/^its input schema is \d+ KB, over the 64 KB Conch sends a model$/);
    const offered = c.agentTools().map((t) => t.name);
    expect(offered).not.toContain('mcp__evil__ref_loop');
    expect(offered).toContain('mcp__evil__huge');
    expect(c.state.state).toBe('connected');
  });

  it('a 50 MB result is not read past the cap, and the session goes on', async () => {
    const c = await hostile({ maxResponseBytes: 8 * 1024 * 1024 });
    await expect(run(c, 'mcp__evil__huge')).rejects.toThrow("the server's answer is over 8.0 MB, more than Conch reads; it was not read to the end");
    expect((await run(c, 'mcp__evil__same_name')).content).toEqual([{ type: 'text', text: 'dot' }]);
  });

  it('a stream that never ends gets the tool timeout, and the session goes on', async () => {
    const c = await hostile({ toolTimeoutMs: 2000 });
    await expect(run(c, 'mcp__evil__hang')).rejects.toThrow('mcp__evil__hang did not answer within 2 s (the tool timeout)');
    expect((await run(c, 'mcp__evil__same_name')).content).toEqual([{ type: 'text', text: 'dot' }]);
  });

  it('invalid JSON-RPC (not JSON, not JSON-RPC, a bad event) fails that call at once with the reason', async () => {
    const c = await hostile({ toolTimeoutMs: 10_000 });
    await expect(run(c, 'mcp__evil__not_json')).rejects.toThrow(`the server's answer is not JSON (it begins "<html>oops</html>")`);
    await expect(run(c, 'mcp__evil__not_json_rpc')).rejects.toThrow("the server's answer is not a JSON-RPC 2.0 message");
    await expect(run(c, 'mcp__evil__bad_event')).rejects.toThrow("the server's answer is not JSON");
    expect((await run(c, 'mcp__evil__same_name')).content).toEqual([{ type: 'text', text: 'dot' }]);
  });
});

describe('a hostile tool list', () => {
  it('a tools/list answer over the size cap fails the server with the reason, not the page', async () => {
    const c = await hostile({ maxResponseBytes: 1024 * 1024 });
    expect(c.state).toEqual({ state: 'failed', reason: "the server's answer is over 1.0 MB, more than Conch reads; it was not read to the end" });
  });
});
