// What the timeline calls each step: a short line of its own text, never the whole of a long message.
import { messageText } from '../../ai/messages';
import type { Message } from '../../ai/types';
import type { ReplayStep } from './steps';

const MAX = 80;

/** A one-line label for `step` of a session with `messages`. */
export function stepLabel(step: ReplayStep, messages: readonly Message[]): string {
  switch (step.kind) {
    case 'user':
      return short(messageText(messages[step.seq]));
    case 'assistant': {
      const message = messages[step.seq];
      if (message.role === 'assistant' && message.stopReason === 'error') return `Error: ${short(message.errorMessage ?? 'the provider failed')}`;
      return short(messageText(message)) || 'Thinking';
    }
    case 'tool': {
      const args = step.call.arguments;
      const target = typeof args.path === 'string' ? args.path : typeof args.command === 'string' ? args.command : typeof args.pattern === 'string' ? args.pattern : '';
      return short(`${step.call.name} ${target}`);
    }
    case 'compaction':
      return short(`Compacted: ${step.compaction.summary}`);
    case 'subagent':
      return short(`Subagent: ${step.title}`);
    default:
      return step satisfies never;
  }
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
