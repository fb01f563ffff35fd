// A long, realistic transcript for load and scroll measurements: user prompts, assistant answers in Markdown
// (headings, lists, code, tables), tool calls of every common kind and their results. Messages are numbered in
// their text ("Prompt 17", "Answer 17") so a test can tell which ones are on screen. Deterministic.
import type { AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage } from '../../src/ai/types';

const USAGE = { input: 1200, output: 240, cacheRead: 800, cacheWrite: 0, cost: { total: 0.004 } };

/** Exactly `count` messages: whole turns (user, assistant with tool calls, their results, answer), then short exchanges. */
export function longTranscript(count: number, start = Date.UTC(2026, 0, 5, 9)): Message[] {
  const messages: Message[] = [];
  let clock = start;
  const tick = () => (clock += 1500);
  for (let turn = 1; ; turn++) {
    const calls = toolCalls(turn);
    if (messages.length + calls.length + 3 > count) break;
    messages.push({ role: 'user', content: `Prompt ${turn}: please look at module ${turn % 40} and fix the failing test.`, timestamp: tick() });
    messages.push(assistantMessage([{ type: 'text', text: `Working on prompt ${turn}. I'll read the code first.` }, ...calls], 'toolUse', tick()));
    for (const call of calls) messages.push(toolResult(call, turn, tick()));
    messages.push(assistantMessage([{ type: 'text', text: answerMarkdown(turn) }], 'stop', tick()));
  }
  // The few left over: a short exchange, so the transcript never ends on a tool call without its result.
  const leftover = messages.length;
  for (let n = leftover; n < count; n++) {
    const user: UserMessage = { role: 'user', content: `Follow-up ${n}: thanks.`, timestamp: tick() };
    messages.push((n - leftover) % 2 === 0 ? user : assistantMessage([{ type: 'text', text: `Noted (${n}).` }], 'stop', tick()));
  }
  return messages;
}

function toolCalls(turn: number): ToolCall[] {
  const file = `src/module${turn % 40}/index.ts`;
  const calls: ToolCall[] = [
    { type: 'toolCall', id: `read-${turn}`, name: 'read', arguments: { path: file, offset: 1, limit: 80 } },
  ];
  if (turn % 3 === 0) {
    calls.push({ type: 'toolCall', id: `edit-${turn}`, name: 'edit', arguments: { path: file, edits: [{ oldText: `return a + ${turn};`, newText: `return a + ${turn + 1};` }] } });
  }
  if (turn % 2 === 0) calls.push({ type: 'toolCall', id: `bash-${turn}`, name: 'bash', arguments: { command: `npm test -- module${turn % 40}` } });
  return calls;
}

function toolResult(call: ToolCall, turn: number, timestamp: number): ToolResultMessage {
  const text =
    call.name === 'read' ? Array.from({ length: 30 }, (_, i) => `${i + 1}\texport const value${i} = compute(${turn}, ${i});`).join('\n')
    : call.name === 'edit' ? `Successfully replaced 1 block in ${String(call.arguments.path)}.`
    : `> test\n\n PASS  module${turn % 40}.test.ts (${turn % 9} tests)\n\nTests: ${turn % 9} passed`;
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text }], isError: false, timestamp };
}

function answerMarkdown(turn: number): string {
  const parts = [`## Answer ${turn}`, `The failing test in \`module${turn % 40}\` expected **${turn + 1}** but got _${turn}_. I changed the return value.`];
  if (turn % 2 === 0) parts.push('- read the module\n- fixed the off-by-one\n- ran the tests');
  if (turn % 3 === 0) parts.push('```ts\nexport function add(a: number): number {\n  return a + ' + (turn + 1) + ';\n}\n```');
  if (turn % 5 === 0) parts.push('| file | status |\n|---|---|\n| `index.ts` | changed |\n| `index.test.ts` | passing |');
  return parts.join('\n\n');
}

function assistantMessage(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason'], timestamp: number): AssistantMessage {
  return { role: 'assistant', content, provider: 'openai-compatible', model: 'mock-model', usage: USAGE, stopReason, timestamp };
}
