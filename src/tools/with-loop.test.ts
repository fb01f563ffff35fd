import { describe, expect, it } from 'vitest';
import { runAgentLoop } from '../agent/index';
import type { ToolResultMessage } from '../ai/types';
import { createScriptedStreamFn, toolCall } from '../ai/providers/scripted';
import { createCodingTools } from './index';
import { readText, runtimeWith } from './test-helpers';

const model = {
  provider: 'scripted', id: 'script', name: 'Script', contextWindow: 100_000, maxTokens: 8_000,
  input: ['text' as const], reasoning: false, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
};

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
});
