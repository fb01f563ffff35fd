// The loop's pre-call hook (AgentLoopConfig.beforeModelCall): replacing what is sent, limiting output, and one retry
// after a context overflow.
import { describe, expect, it } from 'vitest';
import { createScriptedStreamFn, toolCall } from '../ai/providers/scripted';
import type { Message } from '../ai/types';
import { runAgentLoop } from './loop';
import { echoTool, runScripted, testModel, user } from './testing/loop-kit';
import type { ModelCallInfo } from './types';

const tooLong = { content: [], stopReason: 'error' as const, errorMessage: 'prompt is too long: 213000 tokens > 200000 maximum' };

describe('the pre-call hook', () => {
  it('is asked before every model call, also between tool batches, with what would be sent', async () => {
    const seen: ModelCallInfo[] = [];
    const { requests } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, { content: [toolCall('echo', { text: 'b' })] }, 'done'], {
      tools: [echoTool()],
      config: { beforeModelCall: async (call) => void seen.push({ ...call, messages: call.messages.slice() }) },
    });
    expect(seen.map((call) => call.messages.length)).toEqual([1, 3, 5]);
    expect(seen.map((call) => call.messages)).toEqual(requests.map((request) => request.messages));
    expect(seen[0]).toMatchObject({ systemPrompt: 'You are a test.', tools: [{ name: 'echo' }] });
    expect(seen.every((call) => call.overflow === undefined)).toBe(true);
  });

  it('may replace the messages; the run continues from them and still returns everything it appended', async () => {
    const summary: Message = user('Summary of everything before.');
    let replaced = false;
    const { requests, messages } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'done'], {
      tools: [echoTool()],
      history: [user('old 1'), user('old 2')],
      config: {
        beforeModelCall: async (call) => {
          if (replaced) return;
          replaced = true;
          return { messages: [summary, call.messages.at(-1)!] };
        },
      },
    });
    expect(requests[0].messages).toEqual([summary, user('go')]);
    expect(requests[1].messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'toolResult']);
    expect(requests[1].messages[0]).toBe(summary);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant']);
  });

  it('limits the output of that call; without a limit the configured one applies', async () => {
    const streamFn = createScriptedStreamFn([{ content: [toolCall('echo', { text: 'a' })] }, 'done']);
    const limits = [2_000, undefined];
    const stream = runAgentLoop([user('go')], { systemPrompt: '', messages: [], tools: [echoTool()] }, {
      model: testModel,
      streamFn,
      streamOptions: { maxTokens: 9_000, apiKey: 'k' },
      beforeModelCall: async () => ({ maxTokens: limits.shift() }),
    });
    await stream.result();
    expect(streamFn.options.map((o) => [o?.maxTokens, o?.apiKey])).toEqual([[2_000, 'k'], [9_000, 'k']]);
  });

  it('may send one call with another system prompt; a call it leaves alone keeps the run\'s', async () => {
    const prompts = ['Instructions as they are now.', undefined];
    const { requests } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'done'], {
      tools: [echoTool()],
      config: { beforeModelCall: async () => ({ systemPrompt: prompts.shift() }) },
    });
    expect(requests.map((request) => request.systemPrompt)).toEqual(['Instructions as they are now.', 'You are a test.']);
  });

  it('may give the active tools from that call on: the reply\'s calls are looked up among them', async () => {
    const later = { ...echoTool(), name: 'later' };
    let calls = 0;
    const { requests, messages } = await runScripted(
      [{ content: [toolCall('echo', { text: 'a' })] }, { content: [toolCall('later', { text: 'b' }), toolCall('echo', { text: 'c' })] }, 'done'],
      { tools: [echoTool()], config: { beforeModelCall: async () => (++calls === 2 ? { tools: [later] } : undefined) } },
    );
    expect(requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([['echo'], ['later'], ['later']]);
    const results = messages.filter((m) => m.role === 'toolResult');
    expect(results.map((r) => [r.toolName, r.isError])).toEqual([['echo', false], ['later', false], ['echo', true]]);
    expect(JSON.stringify(results[2].content)).toContain('Tool echo not found');
  });

  it('fails the call with the reason when the hook throws, sending nothing', async () => {
    const { requests, messages } = await runScripted(['never'], {
      config: { beforeModelCall: async () => Promise.reject(new Error('storage is full')) },
    });
    expect(requests).toHaveLength(0);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'error',
      errorMessage: 'Conch could not prepare the request to the model: storage is full',
    });
  });
});

describe('a context overflow', () => {
  it('asks the hook again with the error and sends the same call once more with its messages, the rejection unseen', async () => {
    const seen: ModelCallInfo[] = [];
    const { requests, messages, events } = await runScripted([tooLong, 'recovered'], {
      history: [user('a long history')],
      config: {
        beforeModelCall: async (call) => {
          seen.push({ ...call });
          return call.overflow ? { messages: [user('compacted'), call.messages.at(-1)!] } : undefined;
        },
      },
    });
    expect(seen.map((call) => call.overflow)).toEqual([undefined, 'prompt is too long: 213000 tokens > 200000 maximum']);
    expect(requests[1].messages).toEqual([user('compacted'), user('go')]);
    expect(messages.map((m) => (m.role === 'assistant' ? m.stopReason : m.role))).toEqual(['user', 'stop']);
    expect(events.filter((e) => e.type === 'message_start')).toHaveLength(2);
  });

  it('is shown as the error it is when the hook gives nothing new, and a second one is not retried', async () => {
    const unanswered = await runScripted([tooLong], { config: { beforeModelCall: async () => undefined } });
    expect(unanswered.messages.at(-1)).toMatchObject({ stopReason: 'error', errorMessage: tooLong.errorMessage });
    expect(unanswered.events.filter((e) => e.type === 'message_start')).toHaveLength(2);

    const twice = await runScripted([tooLong, tooLong, 'never'], {
      config: { beforeModelCall: async (call) => ({ messages: call.messages.slice(-1) }) },
    });
    expect(twice.requests).toHaveLength(2);
    expect(twice.messages.at(-1)).toMatchObject({ stopReason: 'error', errorMessage: tooLong.errorMessage });
  });

  it('is only retried when rejected before anything streamed', async () => {
    const { requests } = await runScripted([{ ...tooLong, content: 'partial text' }, 'never'], {
      config: { beforeModelCall: async (call) => ({ messages: call.messages.slice(-1) }) },
    });
    expect(requests).toHaveLength(1);
  });
});
