import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { toolCall } from '../ai/providers/scripted';
import { deferred, echoTool, makeTool, runScripted, textOf } from './testing/loop-kit';
import type { AgentEvent, AgentTool } from './types';

const endsOf = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'tool_execution_end' ? [e.toolCallId] : []));

describe('tool lookup', () => {
  it('answers a made-up tool with "not found" and the list of available tools', async () => {
    const { toolResults } = await runScripted([{ content: [toolCall('teleport', {})] }, 'ok'], { tools: [echoTool()] });
    expect(toolResults[0].isError).toBe(true);
    expect(toolResults[0].content).toEqual([
      { type: 'text', text: 'Tool teleport not found' },
      { type: 'text', text: 'Available tools: echo. Call one of those instead.' },
    ]);
  });

  it('treats a registered but inactive tool as unknown', async () => {
    const bash = makeTool('bash', Type.Object({ command: Type.String() }), () => ({ content: [] }));
    const { toolResults, requests } = await runScripted([{ content: [toolCall('bash', { command: 'ls' })] }, 'ok'], {
      tools: [echoTool()], // bash exists elsewhere but is not active in this session
    });
    expect(bash.calls).toHaveLength(0);
    expect(textOf(toolResults[0])).toBe('Tool bash not found\nAvailable tools: echo. Call one of those instead.');
    expect(requests[0].tools.map((t) => t.name)).toEqual(['echo']);
  });
});

describe('arguments', () => {
  const countTool = () =>
    makeTool('count', Type.Object({ path: Type.String(), count: Type.Integer() }), (args) => ({
      content: [{ type: 'text', text: JSON.stringify(args) }],
    }));

  it('coerces before executing and leaves the transcript tool call as the model sent it', async () => {
    const tool = countTool();
    const { messages } = await runScripted([{ content: [toolCall('count', { path: 'a', count: '7' })] }, 'ok'], {
      tools: [tool],
    });
    expect(tool.calls).toEqual([{ path: 'a', count: 7 }]);
    const assistant = messages[1];
    expect(assistant.role === 'assistant' && assistant.content[0]).toMatchObject({ arguments: { path: 'a', count: '7' } });
  });

  it('runs prepareArguments before validation', async () => {
    const tool = makeTool(
      'edit',
      Type.Object({ path: Type.String(), edits: Type.Array(Type.Object({ oldText: Type.String(), newText: Type.String() })) }),
      () => ({ content: [{ type: 'text', text: 'edited' }] }),
      {
        prepareArguments(raw) {
          const { oldText, newText, ...rest } = raw as Record<string, unknown>;
          return oldText === undefined ? raw : { ...rest, edits: [{ oldText, newText }] };
        },
      },
    );
    const { toolResults } = await runScripted(
      [{ content: [toolCall('edit', { path: 'a', oldText: 'x', newText: 1 })] }, 'ok'],
      { tools: [tool] },
    );
    expect(toolResults[0].isError).toBe(false);
    expect(tool.calls).toEqual([{ path: 'a', edits: [{ oldText: 'x', newText: '1' }] }]);
  });

  it('reports every failing field and executes nothing when validation fails', async () => {
    const tool = countTool();
    const { toolResults } = await runScripted([{ content: [toolCall('count', { count: '7.5' })] }, 'ok'], {
      tools: [tool],
    });
    expect(tool.calls).toHaveLength(0);
    expect(toolResults[0].isError).toBe(true);
    const text = textOf(toolResults[0]);
    expect(text).toContain('Validation failed for tool "count"');
    expect(text).toContain('- /path: required property missing');
    expect(text).toContain('- /count: Expected integer, got "7.5"');
    expect(text).toContain('"count": "7.5"');
  });
});

describe('hooks', () => {
  it('blocks with the hook reason, or a default one', async () => {
    const tool = echoTool();
    const { toolResults } = await runScripted(
      [{ content: [toolCall('echo', { text: 'a' }), toolCall('echo', { text: 'b' })] }, 'ok'],
      {
        tools: [tool],
        config: {
          beforeToolCall: async ({ args }) =>
            (args as { text: string }).text === 'a' ? { block: true, reason: 'The person declined: not now.' } : { block: true },
        },
      },
    );
    expect(tool.calls).toHaveLength(0);
    expect(toolResults.map((r) => r.isError)).toEqual([true, true]);
    expect(textOf(toolResults[0])).toBe('The person declined: not now.');
    expect(textOf(toolResults[1])).toMatch(/Tool call blocked: echo was not allowed to run/);
  });

  it('blocks when the hook throws (fail closed) and says why', async () => {
    const tool = echoTool();
    const { toolResults } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'ok'], {
      tools: [tool],
      config: {
        beforeToolCall: async () => {
          throw new Error('policy store unavailable');
        },
      },
    });
    expect(tool.calls).toHaveLength(0);
    expect(toolResults[0].isError).toBe(true);
    expect(textOf(toolResults[0])).toContain('policy store unavailable');
    expect(textOf(toolResults[0])).toContain('fail closed');
  });

  it('runs the arguments a hook rewrote in place, after awaiting it', async () => {
    const tool = echoTool();
    const answer = deferred();
    const { toolResults, messages } = await runScripted([{ content: [toolCall('echo', { text: 'rm -rf /' })] }, 'ok'], {
      tools: [tool],
      config: {
        beforeToolCall: async (call) => {
          setTimeout(answer.resolve, 10); // the person answers a little later
          await answer.promise;
          (call.args as { text: string }).text = 'safe';
        },
      },
    });
    expect(tool.calls).toEqual([{ text: 'safe' }]);
    expect(textOf(toolResults[0])).toBe('echo: safe');
    const assistant = messages[1];
    expect(assistant.role === 'assistant' && assistant.content[0]).toMatchObject({ arguments: { text: 'rm -rf /' } });
  });

  it('lets afterToolCall override content, details and isError', async () => {
    const tool = makeTool('echo', Type.Object({ text: Type.String() }), () => ({
      content: [{ type: 'text', text: 'secret=42' }],
      details: { raw: true },
    }));
    const { toolResults, events } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'ok'], {
      tools: [tool],
      config: {
        afterToolCall: async ({ result, isError }) => {
          expect(isError).toBe(false);
          expect(textOf(result)).toBe('secret=42');
          return { content: [{ type: 'text', text: 'secret=[redacted]' }], details: { redacted: true }, isError: true };
        },
      },
    });
    expect(toolResults[0]).toMatchObject({
      content: [{ type: 'text', text: 'secret=[redacted]' }],
      details: { redacted: true },
      isError: true,
    });
    const end = events.find((e) => e.type === 'tool_execution_end');
    expect(end).toMatchObject({ isError: true, result: { details: { redacted: true } } });
  });
});

describe('failing helpers', () => {
  it('reports a prepareArguments that throws as an error result, running nothing', async () => {
    const tool = makeTool('edit', Type.Object({}), () => ({ content: [] }), {
      prepareArguments() {
        throw new Error('edits is not valid JSON');
      },
    });
    const { toolResults } = await runScripted([{ content: [toolCall('edit', { edits: '[' })] }, 'ok'], { tools: [tool] });
    expect(tool.calls).toHaveLength(0);
    expect(toolResults[0].isError).toBe(true);
    expect(textOf(toolResults[0])).toBe('Could not prepare the arguments for edit: edits is not valid JSON');
  });

  it('withholds the result when afterToolCall throws (fail closed) and says the tool ran', async () => {
    const tool = makeTool('read', Type.Object({}), () => ({ content: [{ type: 'text', text: 'API_KEY=sk-123' }] }));
    const { toolResults } = await runScripted([{ content: [toolCall('read', {})] }, 'ok'], {
      tools: [tool],
      config: {
        afterToolCall: async () => {
          throw new Error('redactor crashed');
        },
      },
    });
    expect(toolResults[0].isError).toBe(true);
    expect(textOf(toolResults[0])).not.toContain('sk-123');
    expect(textOf(toolResults[0])).toBe(
      'read ran, but its result was withheld because the check that runs after it failed (redactor crashed).',
    );
  });
});

describe('execution', () => {
  it('turns a throwing tool into an error result with its message', async () => {
    const tool = makeTool('echo', Type.Object({ text: Type.String() }), () => {
      throw new Error('ENOENT: no such file a.txt');
    });
    const { toolResults } = await runScripted([{ content: [toolCall('echo', { text: 'a' })] }, 'ok'], { tools: [tool] });
    expect(toolResults[0]).toMatchObject({ isError: true, content: [{ type: 'text', text: 'ENOENT: no such file a.txt' }] });
  });

  it('appends results in call order while tool_execution_end follows finish order', async () => {
    const slowGate = deferred();
    const tool = makeTool('wait', Type.Object({ label: Type.String() }), async (args) => {
      const { label } = args as { label: string };
      if (label === 'slow') await slowGate.promise;
      else setTimeout(slowGate.resolve, 5); // the fast call finishes first, then releases the slow one
      return { content: [{ type: 'text', text: label }] };
    });
    const { events, toolResults, requests } = await runScripted(
      [{ content: [toolCall('wait', { label: 'slow' }, 'c1'), toolCall('wait', { label: 'fast' }, 'c2')] }, 'ok'],
      { tools: [tool] },
    );
    expect(endsOf(events)).toEqual(['c2', 'c1']);
    expect(toolResults.map((r) => r.toolCallId)).toEqual(['c1', 'c2']);
    expect(requests[1].messages.slice(-2).map((m) => m.role === 'toolResult' && m.toolCallId)).toEqual(['c1', 'c2']);
  });

  it('runs the batch one by one, in order, when any tool in it is sequential', async () => {
    const log: string[] = [];
    const step = (name: string) => async (args: unknown) => {
      const { label } = args as { label: string };
      log.push(`${label} start`);
      await new Promise((r) => setTimeout(r, label === 'a' ? 15 : 1));
      log.push(`${label} end`);
      return { content: [{ type: 'text' as const, text: name }] };
    };
    const schema = Type.Object({ label: Type.String() });
    const tools: AgentTool[] = [
      makeTool('par', schema, step('par')),
      makeTool('seq', schema, step('seq'), { executionMode: 'sequential' }),
    ];
    await runScripted(
      [{ content: [toolCall('par', { label: 'a' }), toolCall('seq', { label: 'b' }), toolCall('par', { label: 'c' })] }, 'ok'],
      { tools },
    );
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('runs calls of one message concurrently otherwise', async () => {
    let running = 0;
    let peak = 0;
    const tool = makeTool('par', Type.Object({}), async () => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return { content: [] };
    });
    await runScripted([{ content: [toolCall('par', {}), toolCall('par', {}), toolCall('par', {})] }, 'ok'], {
      tools: [tool],
    });
    expect(peak).toBe(3);
  });

  it('forwards progress as tool_execution_update, between start and end', async () => {
    const tool = makeTool('bash', Type.Object({}), async (_args, _signal, onUpdate) => {
      onUpdate?.({ content: [{ type: 'text', text: 'line 1' }] });
      return { content: [{ type: 'text', text: 'line 1\nline 2' }] };
    });
    const { events } = await runScripted([{ content: [toolCall('bash', {})] }, 'ok'], { tools: [tool] });
    const kinds = events.filter((e) => e.type.startsWith('tool_execution')).map((e) => e.type);
    expect(kinds).toEqual(['tool_execution_start', 'tool_execution_update', 'tool_execution_end']);
  });

  it('lets two edits of one file both land: the second waits for the first it could observe', async () => {
    const runtime = { files: new Map([['/w/a.txt', 'one\ntwo\n']]) };
    const edit = makeTool(
      'edit',
      Type.Object({ path: Type.String(), from: Type.String(), to: Type.String() }),
      async (args) => {
        const { from, to } = args as { path: string; from: string; to: string };
        const before = runtime.files.get('/w/a.txt') ?? '';
        await new Promise((r) => setTimeout(r, 5)); // an unordered writer would overwrite the other's edit here
        runtime.files.set('/w/a.txt', before.replace(from, to));
        return { content: [{ type: 'text' as const, text: 'edited' }] };
      },
      { effects: (args) => ({ kind: 'write', paths: [(args as { path: string }).path.replace('/./', '/')] }) },
    );
    await runScripted(
      [
        {
          content: [
            toolCall('edit', { path: '/w/a.txt', from: 'one', to: 'ONE' }),
            toolCall('edit', { path: '/w/./a.txt', from: 'two', to: 'TWO' }),
          ],
        },
        'ok',
      ],
      { tools: [edit] },
    );
    expect(runtime.files.get('/w/a.txt')).toBe('ONE\nTWO\n');
  });
});

describe('a stop during a batch', () => {
  it('answers a tool that ignores it, and the calls waiting for that tool, once the grace is over', async () => {
    const controller = new AbortController();
    const late = deferred<{ content: { type: 'text'; text: string }[] }>();
    let report: ((partial: { content: { type: 'text'; text: string }[] }) => void) | undefined;
    const path = Type.Object({ path: Type.String() });
    const stuck = makeTool(
      'write',
      path,
      (_args, _signal, onUpdate) => {
        report = onUpdate;
        setTimeout(() => controller.abort(), 5);
        return late.promise; // ignores the signal
      },
      { effects: (args) => ({ kind: 'write', paths: [args.path] }) },
    );
    const reader = makeTool('read', path, () => ({ content: [{ type: 'text', text: 'read' }] }), {
      effects: (args) => ({ kind: 'read', paths: [args.path] }),
    });
    const started = Date.now();
    const { events, toolResults } = await runScripted(
      [{ content: [toolCall('write', { path: '/w/a.ts' }), toolCall('read', { path: '/w/a.ts' }), toolCall('read', { path: '/w/b.ts' })] }, 'not reached'],
      { tools: [stuck, reader], signal: controller.signal },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(200); // the grace (250 ms) was given
    expect(toolResults.map((r) => r.isError)).toEqual([true, true, false]);
    expect(textOf(toolResults[0])).toMatch(/aborted/);
    expect(textOf(toolResults[1])).toMatch(/before read started/); // it waited for the write, which never finished
    expect(textOf(toolResults[2])).toBe('read'); // independent of the write: it ran at once
    expect(reader.calls).toHaveLength(1);
    // What the stuck tool says afterwards goes nowhere (the run is over; expectValidRun saw one end per call).
    report?.({ content: [{ type: 'text', text: 'progress' }] });
    late.resolve({ content: [{ type: 'text', text: 'done after all' }] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events.filter((e) => e.type === 'tool_execution_update')).toEqual([]);
  });
});
