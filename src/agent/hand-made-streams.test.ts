// The loop against StreamFns written by hand, the way other code and tests will write them: streams that skip
// `start`, streams with no events at all, async StreamFns, ids reused across turns.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { EventStream } from '../ai/event-stream';
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageStream, Message, StreamFn, ToolCall } from '../ai/types';
import { emptyUsage } from '../ai/types';
import { runAgentLoop } from './index';
import { echoTool, expectValidRun, makeTool, testModel, textOf, user } from './testing/loop-kit';
import type { AgentEvent, AgentLoopConfig, AgentTool } from './types';

function assistant(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason'] = 'toolUse'): AssistantMessage {
  return { role: 'assistant', content, provider: 'hand', model: 'hand-1', usage: emptyUsage(), stopReason, timestamp: 0 };
}

function call(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { type: 'toolCall', id, name, arguments: args };
}

/** A stream replaying `events`, whose result() is `final`. */
function streamOf(events: AssistantMessageEvent[], final: AssistantMessage): AssistantMessageStream {
  return {
    async *[Symbol.asyncIterator]() {
      for (const event of events) yield event;
    },
    result: () => Promise.resolve(final),
  };
}

/** One message per model call, each streamed as a lone `done` event. */
function doneOnly(messages: AssistantMessage[]): StreamFn & { calls: Message[][] } {
  const calls: Message[][] = [];
  let turn = 0;
  const fn: StreamFn = (_model, request) => {
    calls.push(request.messages.slice());
    const message = messages[turn++] ?? assistant([{ type: 'text', text: 'out of script' }], 'stop');
    return streamOf([{ type: 'done', message }], message);
  };
  return Object.assign(fn, { calls });
}

async function run(streamFn: StreamFn, tools: AgentTool[], config: Partial<AgentLoopConfig> = {}, signal?: AbortSignal) {
  const stream = runAgentLoop([user('go')], { systemPrompt: '', messages: [], tools }, { model: testModel, streamFn, ...config }, signal);
  const events: AgentEvent[] = [];
  for await (const event of stream) events.push(event);
  const messages = await stream.result();
  expectValidRun(events, messages);
  return { events, messages, results: messages.filter((m) => m.role === 'toolResult') };
}

describe('hand-made streams', () => {
  it('accepts a stream that yields only done (no start event)', async () => {
    const tool = echoTool();
    const { events, results, messages } = await run(
      doneOnly([assistant([call('a', 'echo', { text: 'hi' })]), assistant([{ type: 'text', text: 'ok' }], 'stop')]),
      [tool],
    );
    expect(tool.calls).toEqual([{ text: 'hi' }]);
    expect(results.map(textOf)).toEqual(['echo: hi']);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    const assistantEvents = events
      .filter((e) => (e.type === 'message_start' || e.type === 'message_end') && e.message.role === 'assistant')
      .map((e) => e.type);
    expect(assistantEvents).toEqual(['message_start', 'message_end', 'message_start', 'message_end']);
  });

  it('accepts a stream with no events whose result() holds the message', async () => {
    const final = assistant([{ type: 'text', text: 'quiet' }], 'stop');
    const { messages, events } = await run(() => streamOf([], final), []);
    expect(messages[1]).toEqual(final);
    expect(events.filter((e) => e.type === 'message_start')).toHaveLength(2);
  });

  it('accepts an EventStream ended with the final message', async () => {
    const final = assistant([{ type: 'text', text: 'via EventStream' }], 'stop');
    const streamFn: StreamFn = () => {
      const stream = new EventStream<AssistantMessageEvent, AssistantMessage>();
      queueMicrotask(() => {
        stream.push({ type: 'start', partial: assistant([], 'stop') });
        stream.push({ type: 'done', message: final });
        stream.end(final);
      });
      return stream;
    };
    const { messages } = await run(streamFn, []);
    expect(messages[1]).toEqual(final);
  });

  it('accepts an async StreamFn (a promise of a stream)', async () => {
    const final = assistant([{ type: 'text', text: 'later' }], 'stop');
    const streamFn = (async () => streamOf([{ type: 'done', message: final }], final)) as unknown as StreamFn;
    const { messages } = await run(streamFn, []);
    expect(messages[1]).toEqual(final);
  });

  it('runs tool calls whose ids repeat across turns, each answered once per turn', async () => {
    const tool = echoTool();
    const { results } = await run(
      doneOnly([
        assistant([call('same', 'echo', { text: 'one' })]),
        assistant([call('same', 'echo', { text: 'two' })]),
        assistant([{ type: 'text', text: 'done' }], 'stop'),
      ]),
      [tool],
    );
    expect(results.map(textOf)).toEqual(['echo: one', 'echo: two']);
    expect(results.map((r) => r.role === 'toolResult' && r.toolCallId)).toEqual(['same', 'same']);
  });

  it('ends with the thrown message as errorMessage when the stream throws', async () => {
    const streamFn: StreamFn = () => ({
      async *[Symbol.asyncIterator]() {
        yield* [];
        throw new Error('boom');
      },
      result: () => new Promise<AssistantMessage>(() => undefined),
    });
    const { messages } = await run(streamFn, []);
    expect(messages[1]).toMatchObject({ role: 'assistant', stopReason: 'error', errorMessage: 'boom' });
  });

  it('ends with the thrown message as errorMessage when the StreamFn itself throws', async () => {
    const { messages } = await run(() => {
      throw new Error('no key');
    }, []);
    expect(messages[1]).toMatchObject({ role: 'assistant', stopReason: 'error', errorMessage: 'no key' });
  });

  it('runs what beforeToolCall wrote into call.args in place, and lets afterToolCall clear isError', async () => {
    const failing = makeTool('fail', Type.Object({ text: Type.String() }), (args) => {
      throw new Error(`failed on ${(args as { text: string }).text}`);
    });
    const { results } = await run(
      doneOnly([assistant([call('a', 'fail', { text: 'original' })])]),
      [failing],
      {
        beforeToolCall: async (hookCall) => {
          (hookCall.args as { text: string }).text = 'rewritten';
        },
        afterToolCall: async ({ isError, result }) => {
          expect(isError).toBe(true);
          expect(textOf(result)).toBe('failed on rewritten');
          return { isError: false };
        },
      },
    );
    expect(failing.calls).toEqual([{ text: 'rewritten' }]);
    expect(results[0]).toMatchObject({ isError: false, content: [{ type: 'text', text: 'failed on rewritten' }] });
  });

  it('sends the block reason back as the result text', async () => {
    const tool = echoTool();
    const { results } = await run(doneOnly([assistant([call('a', 'echo', { text: 'x' })])]), [tool], {
      beforeToolCall: async () => ({ block: true, reason: 'Not in read-only mode' }),
    });
    expect(tool.calls).toHaveLength(0);
    expect(results[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Not in read-only mode' }] });
  });

  it('answers calls of an error event message without running them, and ends the run', async () => {
    const tool = echoTool();
    const failed = { ...assistant([call('a', 'echo', { text: 'x' })], 'error'), errorMessage: 'overloaded' };
    const { messages, results } = await run(() => streamOf([{ type: 'error', message: failed }], failed), [tool]);
    expect(tool.calls).toHaveLength(0);
    expect(results).toHaveLength(1);
    expect(messages.at(-1)?.role).toBe('toolResult');
  });

  it('aborts in prepareArguments: the call is answered as aborted and nothing runs', async () => {
    const controller = new AbortController();
    const tool = makeTool('echo', Type.Object({ text: Type.String() }), () => ({ content: [] }), {
      prepareArguments(raw) {
        controller.abort();
        return raw;
      },
    });
    const { results, events } = await run(
      doneOnly([assistant([call('a', 'echo', { text: 'x' }), call('b', 'echo', { text: 'y' })])]),
      [tool],
      {},
      controller.signal,
    );
    expect(tool.calls).toHaveLength(0);
    expect(results.map((r) => r.role === 'toolResult' && r.isError)).toEqual([true, true]);
    for (const result of results) expect(textOf(result as never)).toMatch(/aborted/);
    expect(events.at(-1)?.type).toBe('agent_end');
  });
});
