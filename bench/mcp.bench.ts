// An MCP tool call through Conch's client (argument check, the SDK client, the guarded fetch, result mapping) beside
// the same tools/call sent as a bare fetch to the same session, on loopback against the mock MCP server: the
// difference is Conch's overhead (target: at most 5 ms median). And connecting to a server with 100 tools, which
// lists them and compiles their schemas (target: at most 150 ms), with the compile alone beside it. Prints figures.
import { validateToolArguments } from '../src/ai/validate';
import { connectMcpServer } from '../src/remote/mcp/connect';
import { buildToolListing } from '../src/remote/mcp/tool-list';
import { startMockMcp } from '../e2e/mock-mcp/server';
import { manyTools } from '../e2e/mock-mcp/tools';

const CALLS = 300;
const CONNECTS = 15;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;

async function callOverhead(): Promise<void> {
  const mock = await startMockMcp();
  const connection = await connectMcpServer({ id: 'b', name: 'bench', url: mock.url, headers: [], connectOnStart: true }, { fetch });
  const tool = connection.agentTools().find((t) => t.name === 'mcp__bench__lookup')!;
  const conch: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const started = performance.now();
    const checked = validateToolArguments(tool, { query: 'tea', limit: '2' });
    if (!checked.ok) throw new Error(checked.message);
    await tool.execute(`c${i}`, checked.value as never);
    conch.push(performance.now() - started);
  }
  const handler = mock.handlerMs.slice(-CALLS);

  // The bare call: its own session, then the same request body by hand, the answer read whole.
  const init = await fetch(mock.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bare', version: '0' } } }),
  });
  await init.text();
  const session = init.headers.get('mcp-session-id')!;
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
  await (await fetch(mock.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })).text();
  const bare: number[] = [];
  for (let i = 1; i <= CALLS; i++) {
    const started = performance.now();
    const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'lookup', arguments: { query: 'tea', limit: 2 } } });
    await (await fetch(mock.url, { method: 'POST', headers, body })).text();
    bare.push(performance.now() - started);
  }
  await connection.close();
  await mock.close();
  const overhead = median(conch) - median(bare);
  console.log(`tool call through Conch's client: median ${fmt(median(conch))} (${CALLS} calls)`);
  console.log(`same tools/call as a bare fetch:  median ${fmt(median(bare))}; the server's handler itself: median ${fmt(median(handler))}`);
  console.log(`overhead: ${fmt(overhead)} median (target <= 5 ms) ${overhead <= 5 ? 'OK' : 'OVER'}`);
}

async function connectHundred(): Promise<void> {
  const tools = manyTools(100);
  const mock = await startMockMcp({ tools });
  const times: number[] = [];
  for (let i = 0; i < CONNECTS; i++) {
    const started = performance.now();
    const connection = await connectMcpServer({ id: 'h', name: 'hundred', url: mock.url, headers: [], connectOnStart: true }, { fetch });
    times.push(performance.now() - started);
    if (connection.agentTools().length !== 100) throw new Error(`expected 100 tools, got ${connection.agentTools().length}`);
    await connection.close();
  }
  const listed = tools.map(({ run: _run, ...rest }) => rest);
  const compile: number[] = [];
  for (let i = 0; i < CONNECTS; i++) {
    const started = performance.now();
    buildToolListing('hundred', listed, false);
    compile.push(performance.now() - started);
  }
  await mock.close();
  console.log(`connect + list + compile 100 tools: median ${fmt(median(times))}, first ${fmt(times[0])} (target <= 150 ms) ${median(times) <= 150 ? 'OK' : 'OVER'}`);
  console.log(`compiling the 100 schemas alone: median ${fmt(median(compile))}`);
}

await callOverhead();
await connectHundred();
