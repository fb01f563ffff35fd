import { expect, it } from 'vitest';
import type { Message } from '../../ai/types';
import { AgentCommandLog } from './agent-command-log.svelte';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: { total: 0 } };

it('rebuilds the agent commands from a stored transcript: bash calls with their results, others left out', () => {
  const messages: Message[] = [
    { role: 'user', content: 'run things', timestamp: 1 },
    {
      role: 'assistant', provider: 'p', model: 'm', usage, stopReason: 'toolUse', timestamp: 2,
      content: [
        { type: 'toolCall', id: 'a', name: 'bash', arguments: { command: 'echo hi' } },
        { type: 'toolCall', id: 'b', name: 'read', arguments: { path: 'x' } },
        { type: 'toolCall', id: 'c', name: 'bash', arguments: { command: 'false' } },
      ],
    },
    { role: 'toolResult', toolCallId: 'a', toolName: 'bash', content: [{ type: 'text', text: 'hi\n' }], isError: false, timestamp: 3 },
    { role: 'toolResult', toolCallId: 'b', toolName: 'read', content: [{ type: 'text', text: 'x' }], isError: false, timestamp: 3 },
    { role: 'toolResult', toolCallId: 'c', toolName: 'bash', content: [{ type: 'text', text: 'exit code 1' }], isError: true, timestamp: 4 },
  ];
  const log = new AgentCommandLog();
  log.rebuild(messages);
  expect(log.commands).toEqual([
    { id: 'a', command: 'echo hi', output: 'hi\n', status: 'done' },
    { id: 'c', command: 'false', output: 'exit code 1', status: 'error' },
  ]);
});
