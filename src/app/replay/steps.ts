// The steps of a session's replay, in the order they happened: each user message, each assistant reply that says
// something (text, thinking, an error), each tool call, and each compaction divider. One linear pass over the
// transcript, no copies of message content, so indexing a 5,000-message session costs about a millisecond.
// A `task` call answered by a recorded subagent task is a step of its own kind, 'subagent': a group holding the task's
// steps (its replies and tool calls, indexed over its own transcript).
import type { AssistantMessage, CompactionEntry, Message, TaskEntry, ToolCall } from '../../ai/types';

export type StepKind = 'user' | 'assistant' | 'tool' | 'compaction' | 'subagent';

/**
 * One step. `seq`: the last message the conversation shows at this step; `turn`: the seq of the user message whose
 * turn it belongs to (-1 before the first one). A subagent step's own `steps` count their seqs in `task.messages`.
 */
export type ReplayStep =
  | { kind: 'user'; seq: number; turn: number }
  | { kind: 'assistant'; seq: number; turn: number }
  | { kind: 'tool'; seq: number; turn: number; call: ToolCall; resultSeq?: number }
  | { kind: 'compaction'; seq: number; turn: number; compaction: CompactionEntry }
  | { kind: 'subagent'; seq: number; turn: number; title: string; steps: ReplayStep[]; call: ToolCall; resultSeq?: number; task: TaskEntry };

/**
 * The steps of `messages` with `compactions` as dividers before the message each was made at, and each of `tasks`
 * as the group of the call it answers.
 */
export function indexSteps(messages: readonly Message[], compactions: readonly CompactionEntry[] = [], tasks: readonly TaskEntry[] = []): ReplayStep[] {
  const byCall = new Map(tasks.map((task) => [task.toolCallId, task]));
  const steps: ReplayStep[] = [];
  const dividers = [...compactions].sort((a, b) => a.atSeq - b.atSeq);
  const resultSeqs = new Map<string, number>();
  messages.forEach((message, seq) => {
    if (message.role === 'toolResult') resultSeqs.set(message.toolCallId, seq);
  });
  let nextDivider = 0;
  let turn = -1;
  const dividersUpTo = (seq: number) => {
    while (nextDivider < dividers.length && dividers[nextDivider].atSeq <= seq) {
      steps.push({ kind: 'compaction', seq: seq - 1, turn, compaction: dividers[nextDivider++] });
    }
  };
  messages.forEach((message, seq) => {
    dividersUpTo(seq);
    switch (message.role) {
      case 'user':
        turn = seq;
        steps.push({ kind: 'user', seq, turn });
        break;
      case 'assistant':
        if (saysSomething(message)) steps.push({ kind: 'assistant', seq, turn });
        for (const block of message.content) {
          if (block.type !== 'toolCall') continue;
          const task = byCall.get(block.id);
          const resultSeq = resultSeqs.get(block.id);
          if (task) steps.push({ kind: 'subagent', seq, turn, title: task.description, steps: taskSteps(task), call: block, resultSeq, task });
          else steps.push({ kind: 'tool', seq, turn, call: block, resultSeq });
        }
        break;
      case 'toolResult':
        break; // shown in its call's step
      default:
        message satisfies never;
    }
  });
  dividersUpTo(messages.length);
  return steps;
}

/** A task's own steps: its replies and tool calls (its prompt is the group's). */
function taskSteps(task: TaskEntry): ReplayStep[] {
  return indexSteps(task.messages, task.compactions).filter((step) => step.kind !== 'user');
}

/** Whether a reply is a step of its own: it has text or thinking, or it is not only tool calls (an error, an empty stop). */
function saysSomething(message: AssistantMessage): boolean {
  const calls = message.content.filter((block) => block.type === 'toolCall').length;
  return calls === 0 || message.content.some((block) => (block.type === 'text' && block.text.trim() !== '') || (block.type === 'thinking' && block.thinking.trim() !== ''));
}

/** The index of the first user step after `from`, or -1. */
export function nextUserStep(steps: readonly ReplayStep[], from: number): number {
  for (let i = from + 1; i < steps.length; i++) if (steps[i].kind === 'user') return i;
  return -1;
}
