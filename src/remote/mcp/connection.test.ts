// The MCP client against the mock MCP server (e2e/mock-mcp) over Node's real fetch on loopback.
import { afterEach, describe, expect, it } from 'vitest';
import { validateToolArguments } from '../../ai/validate';
import { startMockMcp, type MockMcp, type MockMcpOptions } from '../../../e2e/mock-mcp/server';
import { STANDARD_TOOLS } from '../../../e2e/mock-mcp/tools';
import { connectMcpServer } from './connect';
import type { McpConnection, McpConnectOptions } from './types';

let mock: MockMcp | undefined;
let connection: McpConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await mock?.close();
  connection = mock = undefined;
});

async function connect(mockOptions: MockMcpOptions = {}, options: Partial<McpConnectOptions> = {}) {
  mock = await startMockMcp(mockOptions);
  connection = await connectMcpServer({ id: 's1', name: 'mock', url: mock.url, headers: [], connectOnStart: true }, { fetch, ...options });
  return { mock, connection };
}

function tool(connection: McpConnection, name: string) {
  const found = connection.agentTools().find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function run(connection: McpConnection, name: string, args: unknown, signal?: AbortSignal, onUpdate?: (p: unknown) => void) {
  const t = tool(connection, name);
  const checked = validateToolArguments(t, args);
  if (!checked.ok) throw new Error(checked.message);
  return t.execute('call-1', checked.value as never, signal, onUpdate);
}

const textOf = (result: { content: { type: string; text?: string }[] }) => result.content.map((c) => c.text ?? `[${c.type}]`).join('\n');

describe('connecting', () => {
  it('connects, lists the tools under registry names, and offers the prompts', async () => {
    const { connection } = await connect();
    expect(connection.state).toEqual({ state: 'connected', tools: STANDARD_TOOLS.length });
    expect(connection.tools().map((t) => t.name)).toContain('mcp__mock__lookup');
    expect(connection.tools().find((t) => t.name === 'mcp__mock__lookup')).toMatchObject({ serverName: 'lookup', readOnlyHint: true, title: 'Look up', cut: false });
    expect(connection.prompts()).toEqual([{ name: 'review', description: 'Review a file.', arguments: [{ name: 'file', description: 'The file', required: true }] }]);
    expect(await connection.getPrompt('review', { file: 'a.ts' })).toBe('Please review a.ts.');
  });

  it('falls back to the older HTTP+SSE transport when the server refuses the streamable POST, and calls tools through it', async () => {
    const seen: string[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`);
      return fetch(input, init);
    };
    const { connection, mock } = await connect({ transport: 'sse' }, { fetch: spy });
    expect(connection.state).toEqual({ state: 'connected', tools: STANDARD_TOOLS.length });
    expect(seen.slice(0, 2)).toEqual(['POST /mcp', 'GET /mcp']);
    expect(seen).toContain('POST /messages');
    expect(textOf(await run(connection, 'mcp__mock__lookup', { query: 'svelte' }))).toContain('svelte');
    expect(mock.calls.map((c) => c.tool)).toEqual(['lookup']);
    await mock.setTools([STANDARD_TOOLS[0]]);
    await expect.poll(() => connection.tools().length).toBe(1);
  });

  it('sends the configured headers with every request', async () => {
    mock = await startMockMcp();
    const seen: (string | null)[] = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'));
      return fetch(input, init);
    };
    connection = await connectMcpServer({ id: 's', name: 'mock', url: mock.url, headers: [{ name: 'Authorization', value: 'Bearer t0k' }], connectOnStart: true }, { fetch: spy });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((h) => h === 'Bearer t0k')).toBe(true);
  });

  it('a 401 is needs-auth, and its tools say to sign in', async () => {
    const { connection } = await connect({ status: 401 });
    expect(connection.state).toEqual({ state: 'needs-auth' });
    expect(connection.agentTools()).toEqual([]);
  });

  it('a server that is not running is failed with the reason', async () => {
    mock = await startMockMcp();
    const url = mock.url;
    await mock.kill();
    connection = await connectMcpServer({ id: 's', name: 'gone', url, headers: [], connectOnStart: true }, { fetch });
    expect(connection.state.state).toBe('failed');
    expect(connection.state).toMatchObject({ reason: expect.stringContaining('does not answer') });
  });

  it('a server without CORS gives the plain message in a browser', async () => {
    const { browserFetch } = await import('./testing/browser-fetch');
    mock = await startMockMcp({ cors: false });
    connection = await connectMcpServer({ id: 's', name: 'nocors', url: mock.url, headers: [], connectOnStart: true }, { fetch: browserFetch('http://localhost:5173') });
    expect(connection.state).toEqual({
      state: 'failed',
      reason: 'this server does not allow browser clients: it must send Access-Control-Allow-Origin and expose Mcp-Session-Id',
    });
  });

  it('the same server with CORS works through the browser-like fetch', async () => {
    const { browserFetch } = await import('./testing/browser-fetch');
    mock = await startMockMcp();
    connection = await connectMcpServer({ id: 's', name: 'cors', url: mock.url, headers: [], connectOnStart: true }, { fetch: browserFetch('http://localhost:5173') });
    expect(connection.state.state).toBe('connected');
    expect(textOf(await run(connection, 'mcp__cors__lookup', { query: 'x' }))).toBe('found 1 for x');
  });
});

describe('calling tools', () => {
  it('coerces and validates the arguments like the built-ins, field by field', async () => {
    const { connection, mock } = await connect();
    expect(textOf(await run(connection, 'mcp__mock__lookup', { query: 'tea', limit: '3' }))).toBe('found 3 for tea');
    expect(mock.calls.at(-1)?.args).toEqual({ query: 'tea', limit: 3 });
    const bad = validateToolArguments(tool(connection, 'mcp__mock__write_note'), { text: 5, pinned: 'yes', extra: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.message).toContain('Validation failed for tool "mcp__mock__write_note":');
      expect(bad.message).toContain('- /pinned: Expected boolean, got "yes"');
      expect(bad.message).toContain('- /extra: unexpected property (not in the schema); remove it');
      expect(bad.message).toContain('Fix the listed fields and call the tool again.');
      expect(bad.message).not.toContain('/text'); // 5 was coerced to "5"
    }
    const missing = validateToolArguments(tool(connection, 'mcp__mock__lookup'), {});
    expect(!missing.ok && missing.message).toContain('- /query: required property missing');
  });

  it('maps images, structured content and resources', async () => {
    const { connection } = await connect();
    const image = await run(connection, 'mcp__mock__image', {});
    expect(image.content).toEqual([{ type: 'text', text: 'an image:' }, { type: 'image', mimeType: 'image/png', data: expect.any(String) }]);
    expect(JSON.parse(textOf(await run(connection, 'mcp__mock__weather', { city: 'Bergen' })))).toEqual({ city: 'Bergen', celsius: 21 });
    const resources = textOf(await run(connection, 'mcp__mock__resources', {}));
    expect(resources).toContain('[Resource link a.md: file:///notes/a.md (text/markdown)]');
    expect(resources).toContain('file:///notes/b.txt (text/plain)]\ncontents of b');
  });

  it('an isError answer is thrown with its text', async () => {
    const { connection } = await connect();
    await expect(run(connection, 'mcp__mock__fails', {})).rejects.toThrow('the mock refused: nothing to do');
  });

  it('cuts long output like bash and spills the whole of it', async () => {
    const spilled: string[] = [];
    const { connection } = await connect({}, { spill: async (name, text) => (spilled.push(text), `/tmp/${name}.txt`) });
    const out = textOf(await run(connection, 'mcp__mock__big', { lines: 3000 }));
    expect(out).toContain('line 2000\n\n[Output cut: showing lines 1-2000 of 3000. Full output (');
    expect(out).toContain('/tmp/mcp__mock__big.txt; read it with the read tool');
    expect(spilled[0].split('\n')).toHaveLength(3000);
  });

  it('sends progress to onUpdate', async () => {
    const { connection } = await connect();
    const updates: string[] = [];
    await run(connection, 'mcp__mock__progress', {}, undefined, (p) => updates.push(textOf(p as never)));
    expect(updates).toEqual(['step 1 (1/3)', 'step 2 (2/3)', 'step 3 (3/3)']);
  });

  it('abort cancels the request on the server (notifications/cancelled)', async () => {
    const { connection, mock } = await connect();
    const stop = new AbortController();
    const call = run(connection, 'mcp__mock__slow', { ms: 10_000 }, stop.signal);
    await expect.poll(() => mock.calls.length).toBe(1);
    stop.abort();
    await expect(call).rejects.toThrow('was stopped before it finished');
    await expect.poll(() => mock.calls[0].cancelled).toBe(true);
  });

  it('a server slower than the tool timeout gives a clear error, and the next call works', async () => {
    const { connection, mock } = await connect({}, { toolTimeoutMs: 300 });
    await expect(run(connection, 'mcp__mock__slow', { ms: 5000 })).rejects.toThrow(
      'mcp__mock__slow did not answer within 300 ms (the tool timeout), so the call was cancelled.');
    await expect.poll(() => mock.calls[0].cancelled).toBe(true);
    expect(textOf(await run(connection, 'mcp__mock__lookup', { query: 'q' }))).toBe('found 1 for q');
  });
});

describe('lifecycle', () => {
  it('notifications/tools/list_changed refreshes the list and tells the listeners', async () => {
    const { connection, mock } = await connect();
    let changes = 0;
    connection.onChange(() => changes++);
    await mock.setTools([STANDARD_TOOLS[0]]);
    await expect.poll(() => connection.tools().map((t) => t.name)).toEqual(['mcp__mock__lookup']);
    expect(connection.state).toEqual({ state: 'connected', tools: 1 });
    expect(changes).toBeGreaterThan(0);
  });

  it('an expired session (404) is re-initialised once and the call retried', async () => {
    const { connection, mock } = await connect();
    mock.expireSessions();
    expect(textOf(await run(connection, 'mcp__mock__lookup', { query: 'again' }))).toBe('found 1 for again');
    expect(connection.state.state).toBe('connected');
  });

  it('a server killed mid-session fails its calls clearly, and works again once restarted', async () => {
    const { connection, mock } = await connect();
    await mock.kill();
    await expect(run(connection, 'mcp__mock__lookup', { query: 'x' })).rejects.toThrow(/mcp__mock__lookup could not run: the MCP server "mock" (does not answer|is not available)/);
    await expect.poll(() => connection.state.state).toBe('failed');
    await mock.restart();
    expect(textOf(await run(connection, 'mcp__mock__lookup', { query: 'back' }))).toBe('found 1 for back');
    expect(connection.state.state).toBe('connected');
  });
});
