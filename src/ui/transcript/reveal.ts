// Which row of the transcript shows message `seq`: the message's own row, or for a tool result the reply that made
// the call (results show inside their call's card).
import type { Message } from '../../ai/types';

/** The index in `rows` (messages, and compaction dividers between them) of the row showing `transcript[seq]`, or -1. */
export function rowShowing(transcript: readonly Message[], rows: readonly unknown[], seq: number): number {
  const message = transcript[seq];
  if (!message) return -1;
  if (message.role !== 'toolResult') return rows.indexOf(message);
  const id = message.toolCallId;
  for (let seqBefore = seq - 1; seqBefore >= 0; seqBefore--) {
    const candidate = transcript[seqBefore];
    if (candidate.role === 'assistant' && candidate.content.some((block) => block.type === 'toolCall' && block.id === id)) return rows.indexOf(candidate);
  }
  return -1;
}
