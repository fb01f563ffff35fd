// Every adapter, through its real SDK, against the mock provider's wire format.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockProvider, type MockProvider } from '../../../e2e/mock-provider/server';
import { stream } from '../stream';
import { FAST_RETRY, PROVIDER_CASES, collect, userRequest } from '../testing/providers';

let mock: MockProvider;
beforeAll(async () => {
  mock = await startMockProvider();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

describe.each(PROVIDER_CASES)('$name', ({ name, model: modelFor, framesBeforeText }) => {
  const midText = framesBeforeText + 2;
  const model = () => modelFor(mock.url);
  const key = { apiKey: 'test-key', ...FAST_RETRY };

  it('streams a text reply with usage and cost', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'Hello from the mock provider.' }], usage: { input: 1000, output: 500 } }]);
    const { events, message } = await collect(stream(model(), userRequest('hi'), key));
    expect(events[0].type).toBe('start');
    expect(events.at(-1)?.type).toBe('done');
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the mock provider.' }]);
    expect(message.stopReason).toBe('stop');
    expect(message.usage.input).toBe(1000);
    expect(message.usage.output).toBe(500);
    const price = model().cost;
    // A model whose price is unknown (the custom endpoint's) says so instead of costing $0.
    if (price) expect(message.usage.cost.total).toBeCloseTo((1000 * price.input + 500 * price.output) / 1e6, 10);
    else expect(message.usage.cost).toEqual({ total: 0, unknown: true });
    expect(mock.requests).toHaveLength(1);
  });

  it('streams two tool calls whose arguments arrive in pieces', async () => {
    mock.setScript([{ content: [
      { type: 'text', text: 'Reading both.' },
      { type: 'toolCall', name: 'read', arguments: { path: 'src/a.ts', offset: 10 } },
      { type: 'toolCall', name: 'bash', arguments: { command: 'ls -la "src dir"' } },
    ] }]);
    const { events, message } = await collect(stream(model(), userRequest('read'), key));
    expect(message.stopReason).toBe('toolUse');
    const calls = message.content.filter((b) => b.type === 'toolCall');
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([
      ['read', { path: 'src/a.ts', offset: 10 }],
      ['bash', { command: 'ls -la "src dir"' }],
    ]);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(events.filter((e) => e.type === 'toolcall_start')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'toolcall_end')).toHaveLength(2);
    if (!name.startsWith('google')) {
      // Gemini sends each call whole; the others stream the JSON, so some partial snapshot is incomplete.
      const partials = events.flatMap((e) => (e.type === 'toolcall_delta' ? [e.partial.content[e.contentIndex]] : []));
      expect(partials.length).toBeGreaterThan(2);
      expect(partials.some((p) => p.type === 'toolCall' && p.arguments.path !== undefined && p.arguments.offset === undefined)).toBe(true);
    }
  });

  it('streams thinking and keeps its signature', async () => {
    mock.setScript([{ content: [
      { type: 'thinking', thinking: 'Let me consider the files first.', signature: 'SIG-123' },
      { type: 'text', text: 'Done thinking.' },
    ] }]);
    const { events, message } = await collect(stream(model(), userRequest('think'), { ...key, thinking: 'medium' }));
    expect(events.some((e) => e.type === 'thinking_delta')).toBe(true);
    const thinking = message.content[0];
    expect(thinking.type).toBe('thinking');
    if (thinking.type !== 'thinking') return;
    expect(thinking.thinking).toBe('Let me consider the files first.');
    if (name === 'anthropic' || name === 'google') expect(thinking.signature).toBe('SIG-123');
    if (name.startsWith('openai (')) expect(JSON.parse(thinking.signature ?? '{}').encrypted_content).toBe('SIG-123');
    expect(message.content[1]).toEqual({ type: 'text', text: 'Done thinking.' });
  });

  it('reports a length stop', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'This answer was cut' }], stopReason: 'length' }]);
    const { message } = await collect(stream(model(), userRequest('long'), key));
    expect(message.stopReason).toBe('length');
    expect(message.content).toEqual([{ type: 'text', text: 'This answer was cut' }]);
  });

  it('retries a 429, honouring retry-after, and tells the caller', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'after the wait' }], fault: { type: 'status', status: 429, retryAfter: '0.05' } }]);
    const retries: { attempt: number; delayMs: number; reason: string }[] = [];
    const { message } = await collect(stream(model(), userRequest('hi'), { ...key, onRetry: (info) => retries.push(info) }));
    expect(message.stopReason).toBe('stop');
    expect(message.content).toEqual([{ type: 'text', text: 'after the wait' }]);
    expect(retries).toHaveLength(1);
    expect(retries[0].attempt).toBe(1);
    expect(retries[0].delayMs).toBe(50);
    expect(retries[0].reason).toMatch(/rate-limiting/);
    expect(mock.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it('retries a 500 three times, then gives up with the reason', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'never' }], fault: { type: 'status', status: 500, times: 10 } }]);
    const retries: number[] = [];
    const { events, message } = await collect(stream(model(), userRequest('hi'), { ...key, onRetry: (i) => retries.push(i.attempt) }));
    expect(events.at(-1)?.type).toBe('error');
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toMatch(/server error \(HTTP 500\).*gave up after 3 retries/s);
    expect(retries).toEqual([1, 2, 3]);
    expect(mock.requests).toHaveLength(4);
  });

  it('does not retry a rejected key', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'never' }], fault: { type: 'status', status: 401 } }]);
    const { message } = await collect(stream(model(), userRequest('hi'), key));
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toMatch(/rejected the key \(HTTP 401\)/);
    expect(message.errorMessage).toMatch(/The provider said: ".+"/);
    expect(mock.requests).toHaveLength(1);
  });

  it("reports the provider's own bad-key answer as a rejected key (Gemini's is HTTP 400)", async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'never' }], fault: { type: 'badKey' } }]);
    const { events, message } = await collect(stream(model(), userRequest('hi'), key));
    expect(events.at(-1)?.type).toBe('error');
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toMatch(/rejected the key \(HTTP 40[01]\)\. Check the API key in settings\. The provider said: ".*(key|x-api-key).*"/i);
    expect(mock.requests).toHaveLength(1);
  });

  it('keeps what arrived when the provider reports an error inside the stream', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'The first half and the second half.' }], fault: { type: 'errorEvent', afterFrames: midText } }]);
    const { events, message } = await collect(stream(model(), userRequest('hi'), key));
    expect(events.at(-1)?.type).toBe('error');
    expect(message.stopReason).toBe('error');
    expect(message.content[0]).toEqual({ type: 'text', text: expect.stringMatching(/^The first/) });
    expect(message.errorMessage).toMatch(/overloaded|server error|server had an error/i);
    expect(mock.requests).toHaveLength(1);
  });

  it('retries an in-stream overload or server error that arrives before any content', async () => {
    mock.setScript([
      { content: [{ type: 'text', text: 'never' }], fault: { type: 'errorEvent', afterFrames: Math.min(1, framesBeforeText) } },
      { content: [{ type: 'text', text: 'second try' }] },
    ]);
    const retries: string[] = [];
    const { message } = await collect(stream(model(), userRequest('hi'), { ...key, onRetry: (info) => retries.push(info.reason) }));
    expect(message.stopReason).toBe('stop');
    expect(message.content).toEqual([{ type: 'text', text: 'second try' }]);
    expect(retries).toHaveLength(1);
    expect(mock.requests).toHaveLength(2);
  });

  it('recognises a context that no longer fits', async () => {
    mock.setScript([{ content: [], fault: { type: 'contextTooLong' } }]);
    const { message } = await collect(stream(model(), userRequest('hi'), key));
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toMatch(/^The conversation no longer fits the model's context window/);
    expect(mock.requests).toHaveLength(1);
  });

  it('keeps the partial message when the connection drops midway', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'The first half and the second half.' }], fault: { type: 'disconnect', afterFrames: midText } }]);
    const { events, message } = await collect(stream(model(), userRequest('hi'), key));
    expect(events.at(-1)?.type).toBe('error');
    expect(message.stopReason).toBe('error');
    const text = message.content[0];
    expect(text?.type).toBe('text');
    if (text?.type !== 'text') return;
    expect(text.text.length).toBeGreaterThan(0);
    expect('The first half and the second half.'.startsWith(text.text)).toBe(true);
    expect(text.text).not.toBe('The first half and the second half.');
    expect(message.errorMessage).toMatch(/broke off midway|closed before the reply finished/);
    expect(mock.requests).toHaveLength(1);
  });

  it('ends cleanly with an error on a malformed chunk, keeping what arrived', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'Some good text before the bad chunk.' }], fault: { type: 'malformed', afterFrames: midText } }]);
    const { message } = await collect(stream(model(), userRequest('hi'), key));
    expect(message.stopReason).toBe('error');
    expect(message.errorMessage).toBeTruthy();
    expect(message.content[0]).toEqual({ type: 'text', text: expect.stringMatching(/^Some good/) });
    expect(mock.requests).toHaveLength(1);
  });

  it('stops with what had arrived when aborted mid-stream', async () => {
    mock.setScript([{ content: [{ type: 'text', text: 'Streaming slowly and then stalling.' }], fault: { type: 'stall', afterFrames: midText } }]);
    const controller = new AbortController();
    const s = stream(model(), userRequest('hi'), { ...key, signal: controller.signal });
    const events = [];
    for await (const event of s) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    const message = await s.result();
    expect(events.at(-1)?.type).toBe('error');
    expect(message.stopReason).toBe('aborted');
    expect(message.content[0]?.type).toBe('text');
  });
});
