// Message builders shared by the store's tests and bench (not part of the public API).
import type { AssistantMessage, Message, TaskEntry, ToolCall, ToolResultMessage, UserMessage } from '../../ai/types';

export function user(text: string, timestamp = 1): UserMessage {
  return { role: 'user', content: text, timestamp };
}

export function assistant(content: AssistantMessage['content'] | string, cost = 0.01): AssistantMessage {
  return {
    role: 'assistant',
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
    provider: 'anthropic',
    model: 'claude-test',
    usage: { input: 100, output: 20, cacheRead: 5, cacheWrite: 1, cost: { total: cost } },
    stopReason: content instanceof Array && content.some((b) => b.type === 'toolCall') ? 'toolUse' : 'stop',
    timestamp: 2,
  };
}

export function call(id: string, name = 'bash', args: Record<string, unknown> = { command: 'ls' }): ToolCall {
  return { type: 'toolCall', id, name, arguments: args };
}

export function result(toolCallId: string, text = 'ok', toolName = 'bash'): ToolResultMessage {
  return { role: 'toolResult', toolCallId, toolName, content: [{ type: 'text', text }], isError: false, timestamp: 3 };
}

/** A plausible transcript of `turns` user turns, each with one tool call and a final answer. */
export function transcript(turns: number): Message[] {
  const messages: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    messages.push(user(`step ${turn}: change the file`));
    messages.push(assistant([{ type: 'text', text: 'Looking.' }, call(`c${turn}`)]));
    messages.push(result(`c${turn}`, `file${turn}.ts\nREADME.md`));
    messages.push(assistant(`Done with step ${turn}.`));
  }
  return messages;
}

/** A reply that searched the web through its provider and cites a source (the provider's raw blocks as received). */
export function searchedReply(query = 'svelte runes', url = 'https://svelte.dev/docs/runes'): AssistantMessage {
  const use = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query }, caller: { type: 'direct' } };
  const found = { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', caller: { type: 'direct' },
    content: [{ type: 'web_search_result', url, title: 'Runes', encrypted_content: 'enc', page_age: null }] };
  const citation = { type: 'web_search_result_location', url, title: 'Runes', cited_text: 'Runes are symbols', encrypted_index: 'i0' };
  return {
    ...assistant([
      { type: 'serverTool', kind: 'web_search', id: 'srvtoolu_1', query, sources: [{ url, title: 'Runes' }], provider: 'anthropic', raw: [use, found] },
      { type: 'text', text: 'Runes are signals.', citations: [{ url, title: 'Runes', citedText: 'Runes are symbols', raw: citation }] },
    ]),
    usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, webSearches: 1, cost: { total: 0.0102 } },
  };
}

/** A finished explore task answering the parent's call `toolCallId`: its prompt, one read, its reply. */
export function task(toolCallId: string, overrides: Partial<TaskEntry> = {}): TaskEntry {
  return {
    type: 'task',
    toolCallId,
    agent: 'explore',
    description: 'Find the config loader',
    prompt: 'Find where the config is loaded',
    provider: 'anthropic',
    model: 'claude-test',
    status: 'done',
    queuedAt: 10,
    startedAt: 11,
    endedAt: 20,
    messages: [
      user('Find where the config is loaded'),
      assistant([call(`${toolCallId}-r`, 'read', { path: 'src/config.ts' })]),
      result(`${toolCallId}-r`, 'export const config = load();', 'read'),
      assistant('The config is loaded in src/config.ts.', 0.02),
    ],
    toolCalls: 1,
    usage: { input: 200, output: 40, cacheRead: 0, cacheWrite: 0, cost: { total: 0.03 } },
    result: 'The config is loaded in src/config.ts.',
    ...overrides,
  };
}
