// The mock provider's context windows, request sizes and summary requests, driven through Conch's real adapters.
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { estimateRequestTokens } from '../../src/agent/compaction/estimate';
import { SUMMARY_SYSTEM_PROMPT } from '../../src/agent/compaction/summary-prompts';
import { isContextOverflow } from '../../src/ai/errors';
import { FAST_RETRY, PROVIDER_CASES, collect } from '../../src/ai/testing/providers';
import { stream } from '../../src/ai/stream';
import { emptyUsage, type StreamRequest } from '../../src/ai/types';
import { startMockProvider, type MockProvider } from './server';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const key = { apiKey: 'test-key', ...FAST_RETRY };
const sizable: StreamRequest = {
  systemPrompt: 'You are Conch, a coding agent. '.repeat(40),
  tools: [{ name: 'read', description: 'Read a file from the workspace.', parameters: Type.Object({ path: Type.String(), offset: Type.Optional(Type.Number()) }) }],
  messages: [
    { role: 'user', content: 'Look at the parser and tell me what it does. '.repeat(20), timestamp: 1 },
    {
      role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }, { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'src/parser.ts' } }],
      provider: 'other', model: 'other', usage: emptyUsage(), stopReason: 'toolUse', timestamp: 2,
    },
    { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'export function parse(input: string) {}\n'.repeat(200) }], isError: false, timestamp: 3 },
  ],
};

describe.each(PROVIDER_CASES)('$name', ({ model: modelFor }) => {
  const model = () => modelFor(mock.url);

  it('counts a request as Conch estimates it, and reports that as the input tokens', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'It parses.' }] }]);
    const { message } = await collect(stream(model(), sizable, key));
    const expected = estimateRequestTokens(sizable);
    const counted = mock.requests[0].tokens;
    // The wire formats carry the same text; tool schemas are rewritten a little per provider.
    expect(Math.abs(counted - expected)).toBeLessThanOrEqual(expected * 0.02);
    expect(message.usage.input).toBe(counted);
  });

  it("refuses a request over the model's window with the provider's overflow error, which Conch recognises", async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'never' }] }]);
    mock.setContextWindows({ [model().id]: 2_000 });
    const { message } = await collect(stream(model(), sizable, key));
    expect(mock.requests[0].status).toBe(400);
    expect(message.stopReason).toBe('error');
    expect(isContextOverflow(message.errorMessage ?? '')).toBe(true);
    expect(message.errorMessage).toMatch(/^The conversation no longer fits the model's context window/);
    expect(mock.requests).toHaveLength(1); // not retried
  });

  it('answers summary requests on their own, never with the agent\'s turns', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'agent turn' }] }, { when: { summary: true }, content: [{ type: 'text', text: '## Goal\nscripted summary' }] }]);
    const summaryRequest: StreamRequest = { systemPrompt: SUMMARY_SYSTEM_PROMPT, tools: [], messages: [{ role: 'user', content: '<transcript>…</transcript>', timestamp: 1 }] };
    const first = await collect(stream(model(), summaryRequest, key));
    expect(first.message.content).toEqual([{ type: 'text', text: '## Goal\nscripted summary' }]);
    const second = await collect(stream(model(), summaryRequest, key));
    expect(second.message.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^## Goal\n[\s\S]*Mock summary 1 of a \d+-token request/) });
    const agent = await collect(stream(model(), sizable, key));
    expect(agent.message.content).toEqual([{ type: 'text', text: 'agent turn' }]);
    expect(mock.requests.map((r) => r.summary)).toEqual([true, true, false]);
  });
});

describe('the script', () => {
  const post = (path: string, body: unknown) =>
    fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('serves a turn several times with `times`, each time as a new reply', async () => {
    mock.setScript([{ times: 3, content: [{ type: 'toolCall', name: 'read', arguments: { path: 'a' } }] }, { content: [{ type: 'text', text: 'done' }] }]);
    const model = PROVIDER_CASES[0].model(mock.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { message } = await collect(stream(model, sizable, key));
      const block = message.content[0];
      if (block.type === 'toolCall') ids.push(block.id);
    }
    expect(new Set(ids).size).toBe(3);
    expect((await collect(stream(model, sizable, key))).message.content).toEqual([{ type: 'text', text: 'done' }]);
    expect((await post('/__mock/script', [{ times: 0, content: [] }])).status).toBe(400);
  });

  it('takes context windows over HTTP, with "*" for any model, and refuses nonsense', async () => {
    expect((await post('/__mock/context-windows', { '*': 16_384 })).status).toBe(200);
    expect(await (await fetch(`${mock.url}/__mock/context-windows`)).json()).toEqual({ '*': 16_384 });
    const bad = await post('/__mock/context-windows', { m: 'big' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('The context window of m must be a whole number of tokens, got "big".');
    mock.reset();
    expect(await (await fetch(`${mock.url}/__mock/context-windows`)).json()).toEqual({});
  });
});
