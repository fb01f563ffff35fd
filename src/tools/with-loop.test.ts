import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../agent/index';
import type { ToolResultMessage } from '../ai/types';
import { createScriptedStreamFn, toolCall } from '../ai/providers/scripted';
import { testModel } from '../ai/testing/test-model';
import { createCodingTools } from './index';
import { readText, runtimeWith } from './testing/tool-kit';

const model = testModel();

describe('coding tools driven by the agent loop', () => {
  it('repairs quirky edit calls, coerces arguments and lands parallel edits of one file', async () => {
    const runtime = await runtimeWith({ 'app.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    const streamFn = createScriptedStreamFn([
      {
        content: [
          toolCall('edit', { path: 'app.ts', oldText: 'const a = 1;', newText: 'const a = 10;' }),
          toolCall('edit', { path: 'app.ts', edits: '[{"oldText":"const c = 3;","newText":"const c = 30;"}]' }),
          toolCall('read', { path: 'app.ts', offset: '2', limit: '1' }),
        ],
      },
      'done',
    ]);
    const stream = runAgentLoop(
      [{ role: 'user', content: 'go', timestamp: 0 }],
      { systemPrompt: '', messages: [], tools: createCodingTools(runtime) },
      { model, streamFn },
    );
    const messages = await stream.result();
    const results = messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
    expect(results.map((r) => r.isError)).toEqual([false, false, false]);
    expect(await readText(runtime, 'app.ts')).toBe('const a = 10;\nconst b = 2;\nconst c = 30;\n');
    const readResult = results[2].content[0];
    expect(readResult.type === 'text' && readResult.text.startsWith('const b = 2;')).toBe(true);
  });

  it('runs a command after the edit it depends on, in the order the model wrote them', async () => {
    const runtime = await runtimeWith({ 'hello.txt': 'hello world\n' });
    const run = async (calls: ReturnType<typeof toolCall>[]) => {
      const stream = runAgentLoop(
        [{ role: 'user', content: 'go', timestamp: 0 }],
        { systemPrompt: '', messages: [], tools: createCodingTools(runtime) },
        { model, streamFn: createScriptedStreamFn([{ content: calls }, 'done']) },
      );
      return (await stream.result()).filter((m): m is ToolResultMessage => m.role === 'toolResult');
    };
    const text = (result: ToolResultMessage) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

    const [, cat] = await run([
      toolCall('edit', { path: 'hello.txt', edits: [{ oldText: 'world', newText: 'conch' }] }),
      toolCall('bash', { command: 'cat hello.txt' }),
    ]);
    expect(text(cat)).toContain('hello conch');

    const [, , read] = await run([
      toolCall('bash', { command: 'sleep 0.05; echo later > made.txt' }),
      toolCall('write', { path: 'made.txt', content: 'written by write\n' }),
      toolCall('read', { path: 'made.txt' }),
    ]);
    expect(text(read)).toContain('written by write');
    expect(await readText(runtime, 'made.txt')).toBe('written by write\n');

    const [, grep] = await run([
      toolCall('write', { path: 'src/new.ts', content: 'export const marker = 1;\n' }),
      toolCall('grep', { pattern: 'marker', path: 'src' }),
    ]);
    expect(text(grep)).toContain('src/new.ts:1: export const marker = 1;');
  });
});
