import { describe, expect, it } from 'vitest';
import { testModel } from '../testing/test-model';
import type { AssistantMessageEvent, StreamRequest } from '../types';
import { createScriptedStreamFn, text, thinking, toolCall } from './scripted';

const model = testModel();
const request: StreamRequest = { systemPrompt: '', messages: [], tools: [] };

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
  const events: AssistantMessageEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('createScriptedStreamFn', () => {
  it('streams text, thinking and tool calls with growing partials, then done', async () => {
    const streamFn = createScriptedStreamFn([
      { content: [thinking('hmm'), text('Hello world'), toolCall('read', { path: 'a.ts' })], chunkSize: 5 },
    ]);
    const stream = streamFn(model, request);
    const events = await collect(stream);
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'thinking_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'toolcall_start',
      ...Array(Math.ceil(JSON.stringify({ path: 'a.ts' }).length / 5)).fill('toolcall_delta'),
      'toolcall_end',
      'done',
    ]);
    const deltas = events.filter((e) => e.type === 'text_delta').map((e) => ('delta' in e ? e.delta : ''));
    expect(deltas.join('')).toBe('Hello world');
    const message = await stream.result();
    expect(message.stopReason).toBe('toolUse');
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'hmm' },
      { type: 'text', text: 'Hello world' },
      { type: 'toolCall', id: 'call_1_2', name: 'read', arguments: { path: 'a.ts' } },
    ]);
    expect(message.provider).toBe('scripted');
  });

  it('accepts a plain string turn and records requests and options', async () => {
    const streamFn = createScriptedStreamFn(['done']);
    const message = await streamFn(model, request, { apiKey: 'k' }).result();
    expect(message).toMatchObject({ stopReason: 'stop', content: [{ type: 'text', text: 'done' }] });
    expect(streamFn.requests).toEqual([request]);
    expect(streamFn.options[0]?.apiKey).toBe('k');
  });

  it('builds a turn from the request when given a function', async () => {
    const streamFn = createScriptedStreamFn((req, info) => `turn ${info.turn} saw ${req.messages.length}`);
    const message = await streamFn(model, { ...request, messages: [{ role: 'user', content: 'x', timestamp: 0 }] }).result();
    expect(message.content).toEqual([{ type: 'text', text: 'turn 0 saw 1' }]);
  });

  it('ends with an error event when the script runs out', async () => {
    const streamFn = createScriptedStreamFn([]);
    const events = await collect(streamFn(model, request));
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(last && 'message' in last ? last.message.errorMessage : '').toMatch(/no turn 1/);
  });

  it('replays error stop reasons as error events', async () => {
    const streamFn = createScriptedStreamFn([{ content: 'partial', stopReason: 'error', errorMessage: 'overloaded' }]);
    const message = await streamFn(model, request).result();
    expect(message).toMatchObject({ stopReason: 'error', errorMessage: 'overloaded' });
  });

  it('throws at call time or during iteration, as asked', async () => {
    const atCall = createScriptedStreamFn([{ content: [], throws: new Error('bad key'), throwAt: 'call' }]);
    expect(() => atCall(model, request)).toThrow('bad key');

    const inStream = createScriptedStreamFn([{ content: 'some text', throws: new Error('socket closed') }]);
    const stream = inStream(model, request);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    ).rejects.toThrow('socket closed');
    expect(seen).toEqual(['start', 'text_delta']);
    await expect(stream.result()).rejects.toThrow('socket closed');

    const factoryThrows = createScriptedStreamFn(() => {
      throw new Error('sync factory');
    });
    expect(() => factoryThrows(model, request)).toThrow('sync factory');
  });

  it('honours the abort signal during delays, keeping what had arrived', async () => {
    const streamFn = createScriptedStreamFn([{ content: 'abcdefghij', chunkSize: 2, delayMs: 20 }]);
    const controller = new AbortController();
    const stream = streamFn(model, request, { signal: controller.signal });
    const events: AssistantMessageEvent[] = [];
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'text_delta' && events.length === 3) controller.abort();
    }
    const message = await stream.result();
    expect(message.stopReason).toBe('aborted');
    expect(message.content).toEqual([{ type: 'text', text: 'abcd' }]);
    expect(events.at(-1)?.type).toBe('error');
  });
});
