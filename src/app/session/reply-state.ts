// What the end of a transcript allows next: Retry after a provider error, Compact harder after an overflow, Continue
// after a Stop or an interrupted reply. Pure rules over the messages, so the controller and tests share them.
import { isResendable } from '../../agent/compaction/model-context';
import { isContextOverflowMessage } from '../../agent/compaction/overflow';
import type { AssistantMessage, Message } from '../../ai/types';

/** What Continue sends when the model spoke last (its reply was cut off). */
export const CONTINUE_PROMPT = 'Continue from where you stopped.';

/** The last message when it is a provider error the person can retry (never while a run goes on). */
export function failedReply(messages: readonly Message[], running: boolean): AssistantMessage | null {
  const last = messages[messages.length - 1];
  return !running && last?.role === 'assistant' && last.stopReason === 'error' ? last : null;
}

/** The failed last reply is a context overflow the automatic compaction could not cure. */
export function overflowedReply(messages: readonly Message[], running: boolean): boolean {
  const failed = failedReply(messages, running);
  return failed !== null && isContextOverflowMessage(failed);
}

/**
 * Whether Continue applies: the person stopped the run (`stopped`), or the page closed while a reply streamed. Not
 * after a provider error, which has Retry instead.
 */
export function canContinueFrom(messages: readonly Message[], running: boolean, stopped: boolean): boolean {
  if (running || failedReply(messages, running)) return false;
  const lastReply = messages.findLast((m) => m.role === 'assistant');
  return stopped || lastReply?.stopReason === 'aborted';
}

/**
 * The transcript as the model sees it without compactions: a reply that failed before producing anything is left
 * out, so a retry continues from the message before it (a failed reply's tool calls keep their results, so it stays).
 */
export function messagesForModel(messages: Message[]): Message[] {
  return messages.filter(isResendable);
}
