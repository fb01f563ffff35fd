// The transcript's rows as the person sees them: messages (tool results show inside their call's card) with a divider
// where each compaction was made. The full transcript stays; the divider only marks where the model's view begins.
import type { CompactionEntry, Message } from '../../ai/types';

export type TranscriptRow = Message | CompactionEntry;

export function isCompactionRow(row: TranscriptRow): row is CompactionEntry {
  return 'type' in row && row.type === 'compaction';
}

/** Messages other than tool results, with each compaction placed before the message at its `atSeq`. */
export function transcriptRows(transcript: readonly Message[], compactions: readonly CompactionEntry[]): TranscriptRow[] {
  const ordered = [...compactions].sort((a, b) => a.atSeq - b.atSeq);
  const rows: TranscriptRow[] = [];
  let next = 0;
  transcript.forEach((message, seq) => {
    while (next < ordered.length && ordered[next].atSeq <= seq) rows.push(ordered[next++]);
    if (message.role !== 'toolResult') rows.push(message);
  });
  while (next < ordered.length) rows.push(ordered[next++]);
  return rows;
}
