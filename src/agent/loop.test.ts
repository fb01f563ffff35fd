import { Type } from '@sinclair/typebox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toolCall } from '../ai/providers/scripted';
import type { AssistantMessage, AssistantMessageStream, Message, StreamFn, ToolResultMessage } from '../ai/types';
import { runAgentLoop } from './index';
import { deferred, echoTool, expectValidRun, makeTool, runScripted, testModel, textOf, user } from './testing/loop-kit';
import type { AgentEvent, AgentTool } from './types';

const types = (events: AgentEvent[]) => events.map((e) => e.type);
const assistants = (messages: Message[]) => messages.filter((m): m is AssistantMessage => m.role === 'assistant');

describe('a run', () => {
  it('emits the events of a two-turn run in order', async () => {
    const { events, messages } = await runScripted(
      [{ content: [toolCall('echo', { text: 'hi' })] }, 'All done.'],
      { tools: [echoTool()] },
    );
    expect(types(events)).toEqual([
      'agent_start',
      'turn_start',
      'message_start', // the prompt
      'message_end',
      'message_start', // assistant
      'message_update', // toolcall_start
      'message_update', // toolcall_delta
      'message_update', // toolcall_end
      'message_end',
      'tool_execution_start',
      'tool_execution_end',
      'message_start', // tool result
      'message_end',
      'turn_end',
      'turn_start',
      'message_start',
      'message_update',
      'message_end',
      'turn_end',
      'agent_end',
    ]);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
    const turnEnd = events.find((e) => e.type === 'turn_end');
    expect(turnEnd && turnEnd.type === 'turn_end' && turnEnd.toolResults.map(textOf)).toEqual(['echo: hi']);
  });

  it('never modifies context.messages; the caller appends result() itself', async () => {
    const history: Message[] = [user('earlier')];
    const { messages, requests } = await runScripted([{ content: [toolCall('echo', { text: 'x' })] }, 'ok'], {
      tools: [echoTool()],
      history,
    });
    expect(history).toEqual([user('earlier')]);
    expect(messages[0]).toEqual(user('go'));
    // The model saw history + everything appended so far, and each request is a snapshot.
    expect(requests[0].messages.map((m) => m.role)).toEqual(['user', 'user']);
    expect(requests[1].messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'toolResult']);
  });

  it('sends the system prompt, the active tools, the stream options and the signal to the provider', async () => {
    const seen: Parameters<StreamFn>[] = [];
    const tool = echoTool();
    const controller = new AbortController();
    const { createScriptedStreamFn } = await import('../ai/providers/scripted');
    const scripted = createScriptedStreamFn(['hi']);
    const stream = runAgentLoop(
      [user('go')],
      { systemPrompt: 'Be brief.', messages: [], tools: [tool] },
      {
        model: testModel,
        streamFn: (...args) => {
          seen.push(args);
          return scripted(...args);
        },
        streamOptions: { apiKey: 'sk-test', thinking: 'low' },
      },
      controller.signal,
    );
    await stream.result();
    const [model, request, options] = seen[0];
    expect(model).toBe(testModel);
    expect(request.systemPrompt).toBe('Be brief.');
    expect(request.tools).toEqual([{ name: 'echo', description: 'echo tool', parameters: tool.parameters }]);
    expect(options).toMatchObject({ apiKey: 'sk-test', thinking: 'low', signal: controller.signal });
  });
});

describe('provider failures', () => {
  it('ends the run with an error message when the stream reports an error', async () => {
    const { messages, events } = await runScripted([
      { content: 'partial', stopReason: 'error', errorMessage: '529 overloaded' },
    ]);
    expect(assistants(messages)).toHaveLength(1);
    expect(assistants(messages)[0]).toMatchObject({ stopReason: 'error', errorMessage: '529 overloaded' });
    expect(types(events).slice(-2)).toEqual(['turn_end', 'agent_end']);
  });

  it('turns a streamFn that throws synchronously into an error message', async () => {
    const { messages } = await runScripted([{ content: [], throws: new Error('invalid API key'), throwAt: 'call' }]);
    expect(assistants(messages)[0].stopReason).toBe('error');
    expect(assistants(messages)[0].errorMessage).toContain('invalid API key');
  });

  it('turns a stream that throws mid-iteration into an error message, keeping what arrived, and answers its calls', async () => {
    const { messages, toolResults } = await runScripted(
      [{ content: 'Let me look', throws: new Error('socket hang up') }],
    );
    expect(assistants(messages)[0]).toMatchObject({ stopReason: 'error', content: [{ type: 'text', text: 'Let me look' }] });
    expect(assistants(messages)[0].errorMessage).toContain('socket hang up');
    expect(toolResults).toHaveLength(0);

    const withCall = await runScripted([{ content: [toolCall('echo', { text: 'x' })], throws: new Error('reset') }], {
      tools: [echoTool()],
    });
    expect(withCall.toolResults).toHaveLength(1);
    expect(withCall.toolResults[0].isError).toBe(true);
    expect(textOf(withCall.toolResults[0])).toContain('reset');
  });

  it('leaves no unhandled rejection when a failed stream also rejects its unobserved result()', async () => {
    const streamFn: StreamFn = () => {
      const failure = Promise.reject(new Error('TLS handshake failed'));
      return {
        async *[Symbol.asyncIterator]() {
          yield* [];
          throw new Error('TLS handshake failed');
        },
        result: () => failure,
      };
    };
    const stream = runAgentLoop([user('go')], { systemPrompt: '', messages: [], tools: [] }, { model: testModel, streamFn });
    const messages = await stream.result();
    await new Promise((r) => setTimeout(r, 10)); // give Node the chance to report an unhandled rejection
    expect(assistants(messages)[0].errorMessage).toContain('TLS handshake failed');
  });

  it('turns a malformed final message into an error message', async () => {
    const streamFn: StreamFn = () => {
      const stream: AssistantMessageStream = {
        async *[Symbol.asyncIterator]() {
          yield { type: 'done', message: { role: 'assistant', content: 'oops' } as unknown as AssistantMessage };
        },
        result: () => new Promise(() => undefined),
      };
      return stream;
    };
    const stream = runAgentLoop([user('go')], { systemPrompt: '', messages: [], tools: [] }, { model: testModel, streamFn });
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    const messages = await stream.result();
    expectValidRun(events, messages);
    expect(assistants(messages)[0]).toMatchObject({ stopReason: 'error', errorMessage: expect.stringMatching(/malformed/) });
  });
});

describe('internal failures', () => {
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => {
    expect(console.error).toHaveBeenCalledWith('The agent loop stopped because of an internal error:', expect.any(Error));
    vi.restoreAllMocks();
  });

  it('ends cleanly when getSteeringMessages throws', async () => {
    const { messages } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'not reached'], {
      tools: [echoTool()],
      config: {
        getSteeringMessages: async () => {
          throw new Error('queue store closed');
        },
      },
    });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
  });

  it('still answers every tool call when the batch itself fails', async () => {
    const broken = { ...echoTool() } as AgentTool;
    Object.defineProperty(broken, 'executionMode', {
      get() {
        throw new Error('tool registry corrupted');
      },
    });
    const { toolResults } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'not reached'], {
      tools: [broken],
    });
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0].isError).toBe(true);
    expect(textOf(toolResults[0])).toContain('tool registry corrupted');
  });
});

describe('token limit', () => {
  it('executes none of the calls of a cut-off message, asks for them again, and continues', async () => {
    const tool = makeTool('write', Type.Object({ path: Type.String(), content: Type.String() }), () => ({
      content: [{ type: 'text', text: 'written' }],
    }));
    const { toolResults, messages } = await runScripted(
      [
        { content: [toolCall('write', { path: 'a', content: 'x' }), toolCall('write', { path: 'b' })], stopReason: 'length' },
        { content: [toolCall('write', { path: 'b', content: 'complete' })] },
        'Done.',
      ],
      { tools: [tool] },
    );
    expect(tool.calls).toEqual([{ path: 'b', content: 'complete' }]);
    expect(toolResults.slice(0, 2).every((r) => r.isError)).toBe(true);
    for (const result of toolResults.slice(0, 2)) {
      expect(textOf(result)).toMatch(/output token limit/);
      expect(textOf(result)).toMatch(/Re-issue the complete call/);
      expect(textOf(result)).toMatch(/smaller pieces/);
    }
    expect(toolResults[2]).toMatchObject({ isError: false });
    expect(assistants(messages).map((m) => m.stopReason)).toEqual(['length', 'toolUse', 'stop']);
  });
});

describe('steering', () => {
  it('delivers queued messages after the tool batch and before the next model call', async () => {
    const queue: Message[] = [];
    const tool = makeTool('slow', Type.Object({}), async () => {
      queue.push(user('also check the tests')); // the person types while the tool runs
      return { content: [{ type: 'text', text: 'slow done' }] };
    });
    const { messages, requests, events } = await runScripted(
      [{ content: [toolCall('slow', {}), toolCall('slow', {})] }, 'ok'],
      { tools: [tool], config: { getSteeringMessages: async () => queue.splice(0) } },
    );
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'toolResult', 'user', 'user', 'assistant']);
    expect(requests[1].messages.slice(-2)).toEqual([user('also check the tests'), user('also check the tests')]);
    // Delivered inside the next turn, before its assistant message starts.
    const secondTurn = types(events).lastIndexOf('turn_start');
    expect(types(events).slice(secondTurn, secondTurn + 5)).toEqual([
      'turn_start',
      'message_start',
      'message_end',
      'message_start',
      'message_end',
    ]);
  });

  it('continues with another turn when messages are queued as the model stops', async () => {
    const queue: Message[] = [];
    const { messages } = await runScripted(
      (_request, { turn }) => {
        if (turn === 0) queue.push(user('one more thing'));
        return `answer ${turn}`;
      },
      { config: { getSteeringMessages: async () => queue.splice(0) } },
    );
    expect(messages.map((m) => (m.role === 'assistant' ? textOf({ content: m.content as never }) : m.role))).toEqual([
      'user',
      'answer 0',
      'user',
      'answer 1',
    ]);
  });
});

describe('abort', () => {
  const resultsOf = (messages: Message[]) => messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');

  it('during streaming: ends with an aborted message and aborted results for the calls that had arrived', async () => {
    const controller = new AbortController();
    const { messages, events } = await runScripted(
      [{ content: [toolCall('echo', { text: 'a' }), toolCall('echo', { text: 'b' })], delayMs: 5 }],
      {
        tools: [echoTool()],
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'message_update' && event.event.type === 'toolcall_end') controller.abort();
        },
      },
    );
    const assistant = assistants(messages)[0];
    expect(assistant.stopReason).toBe('aborted');
    expect(assistant.content.filter((c) => c.type === 'toolCall')).toHaveLength(1);
    const results = resultsOf(messages);
    expect(results).toHaveLength(1);
    expect(results[0].isError).toBe(true);
    expect(textOf(results[0])).toContain('aborted');
    expect(types(events).at(-1)).toBe('agent_end');
  });

  it('during streaming from a provider that ignores the signal: still ends, keeping what had arrived', async () => {
    const controller = new AbortController();
    const streamFn: StreamFn = (model) => {
      const partial: AssistantMessage = {
        role: 'assistant',
        content: [{ type: 'text', text: 'Working on' }],
        provider: model.provider,
        model: model.id,
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } },
        stopReason: 'stop',
        timestamp: 0,
      };
      return {
        async *[Symbol.asyncIterator]() {
          yield { type: 'start', partial };
          yield { type: 'text_delta', contentIndex: 0, delta: 'Working on', partial };
          setTimeout(() => controller.abort(), 5);
          await new Promise(() => undefined); // hangs forever
        },
        result: () => new Promise(() => undefined),
      };
    };
    const context = { systemPrompt: '', messages: [], tools: [] };
    const stream = runAgentLoop([user('go')], context, { model: testModel, streamFn }, controller.signal);
    const events: AgentEvent[] = [];
    for await (const event of stream) events.push(event);
    const messages = await stream.result();
    expectValidRun(events, messages);
    expect(assistants(messages)[0]).toMatchObject({
      stopReason: 'aborted',
      content: [{ type: 'text', text: 'Working on' }],
    });
  });

  it('during a hook awaiting a person: every call gets exactly one aborted result and nothing runs', async () => {
    const controller = new AbortController();
    const tool = echoTool();
    const neverAnswered = deferred<void>();
    const { messages } = await runScripted(
      [{ content: [toolCall('echo', { text: 'a' }), toolCall('echo', { text: 'b' })] }, 'not reached'],
      {
        tools: [tool],
        signal: controller.signal,
        config: {
          beforeToolCall: async () => {
            setTimeout(() => controller.abort(), 5);
            await neverAnswered.promise; // the person never answers; the hook ignores the signal
          },
        },
      },
    );
    expect(tool.calls).toHaveLength(0);
    const results = resultsOf(messages);
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    for (const result of results) expect(textOf(result)).toContain('aborted');
    expect(assistants(messages)).toHaveLength(1);
  });

  it('during execution: running calls end as aborted (with what the tool said), even one that ignores the signal', async () => {
    const controller = new AbortController();
    const honours = makeTool('bash', Type.Object({}), (_args, signal) => {
      setTimeout(() => controller.abort(), 5);
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('Command aborted. Output so far: hello')));
      });
    });
    const ignores = makeTool('stuck', Type.Object({}), () => new Promise(() => undefined));
    const started = Date.now();
    const { messages, events } = await runScripted(
      [{ content: [toolCall('bash', {}), toolCall('stuck', {})] }, 'not reached'],
      { tools: [honours, ignores], signal: controller.signal },
    );
    expect(Date.now() - started).toBeLessThan(2000);
    const results = resultsOf(messages);
    expect(results.map((r) => r.toolName)).toEqual(['bash', 'stuck']);
    expect(results.every((r) => r.isError && textOf(r).includes('aborted'))).toBe(true);
    expect(textOf(results[0])).toContain('Output so far: hello');
    expect(types(events).at(-1)).toBe('agent_end');
    expect(assistants(messages)).toHaveLength(1);
  });

  it('before the run starts: no model call, an aborted message, agent_end', async () => {
    const controller = new AbortController();
    controller.abort();
    const { messages, requests } = await runScripted(['never'], { signal: controller.signal });
    expect(requests).toHaveLength(0);
    expect(assistants(messages)[0]).toMatchObject({ stopReason: 'aborted', content: [] });
  });

  it('does not poll steering once aborted (queued messages stay queued)', async () => {
    const controller = new AbortController();
    const queue = [user('later')];
    const tool = makeTool('quick', Type.Object({}), () => {
      controller.abort();
      return { content: [] };
    });
    await runScripted([{ content: [toolCall('quick', {})] }, 'not reached'], {
      tools: [tool],
      signal: controller.signal,
      config: { getSteeringMessages: async () => queue.splice(0) },
    });
    expect(queue).toHaveLength(1);
  });
});
