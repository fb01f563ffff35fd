// What the model is sent for a session: after a compaction, one user message carrying the summary and the file lists,
// then the messages from the compaction's first kept one on. The person's transcript is never changed; this is a view.
import type { CompactionEntry, Message, UserMessage } from '../../ai/types';
import { completedCount, formatTodoList } from '../todo-list';

export const SUMMARY_PREFIX = 'The conversation before this point was compacted into this summary:';

/** The model's view of a session, with the session seq of each message so later compactions can name them. */
export type ModelContext = {
  /** What follows the system prompt: the summary message (when compacted), then the kept messages. */
  messages: Message[];
  /** The session seq of each message of `messages`; -1 for the summary message. */
  seqs: number[];
  /** The compaction the view starts from, if any (its summary and file lists are the ones to update next time). */
  compaction?: CompactionEntry;
  /** How many session messages the view was built from: the seq the next message will get. */
  nextSeq: number;
  /**
   * Index in `messages` of the first message written after the compaction. Replies before it were answers to a
   * longer context, so their usage no longer measures this one (see ContextTokenCounter).
   */
  usageFrom: number;
};

/**
 * The model's view of a session (`messages` indexed by seq, `compactions` in the order made) as of `upToSeq` messages
 * (default: all). Only compactions made at or before that point count, so a fork or restore at an earlier message
 * gets the view it had then. A reply that failed before producing anything is left out, so a retry continues from
 * the message before it.
 */
export function buildModelContext(
  messages: readonly Message[],
  compactions: readonly CompactionEntry[],
  upToSeq: number = messages.length,
): ModelContext {
  const end = Math.min(upToSeq, messages.length);
  const compaction = latestCompactionAt(compactions, end);
  const view: Message[] = [];
  const seqs: number[] = [];
  if (compaction) {
    view.push(summaryMessage(compaction));
    seqs.push(-1);
  }
  let usageFrom = -1;
  for (let seq = compaction ? compaction.firstKeptSeq : 0; seq < end; seq++) {
    const message = messages[seq];
    if (!isResendable(message)) continue;
    if (usageFrom < 0 && (!compaction || seq >= compaction.atSeq)) usageFrom = view.length;
    view.push(message);
    seqs.push(seq);
  }
  return { messages: view, seqs, compaction, nextSeq: end, usageFrom: usageFrom < 0 ? view.length : usageFrom };
}

/** The last compaction made when the session had at most `seq` messages. */
export function latestCompactionAt(compactions: readonly CompactionEntry[], seq: number): CompactionEntry | undefined {
  let latest: CompactionEntry | undefined;
  for (const compaction of compactions) {
    if (compaction.atSeq <= seq && (!latest || compaction.atSeq >= latest.atSeq)) latest = compaction;
  }
  return latest;
}

/** The user message that stands for everything a compaction summarised. */
export function summaryMessage(compaction: CompactionEntry): UserMessage {
  const parts = [SUMMARY_PREFIX, compaction.summary.trim()];
  if (compaction.readFiles.length > 0) parts.push(`Files read:\n${compaction.readFiles.map((path) => `- ${path}`).join('\n')}`);
  if (compaction.modifiedFiles.length > 0) {
    parts.push(`Files modified:\n${compaction.modifiedFiles.map((path) => `- ${path}`).join('\n')}`);
  }
  if (compaction.todos && compaction.todos.length > 0) {
    const done = `${completedCount(compaction.todos)}/${compaction.todos.length} done`;
    const heading = `Your todo list as it stands (${done}; call todo with the whole list to change it):`;
    parts.push(`${heading}\n${formatTodoList(compaction.todos)}`);
  }
  return { role: 'user', content: parts.join('\n\n'), timestamp: compaction.timestamp };
}

/** False for a reply that failed before producing anything: it is kept for the person but never sent again. */
export function isResendable(message: Message): boolean {
  if (message.role !== 'assistant' || (message.stopReason !== 'error' && message.stopReason !== 'aborted')) return true;
  return message.content.length > 0 && (message.stopReason === 'aborted' || message.content.some((c) => c.type === 'toolCall'));
}
