// Telling a reply a reload cut off (stored closed as interrupted) from one the person stopped, for the transcript's
// "interrupted" marker; apart from the recovery code so the transcript does not load the store.
import type { AssistantMessage, Message } from '../../ai/types';
import { INTERRUPTED_BY_RELOAD } from '../../store/sessions/repair-transcript';

/** True for a reply the page was closed on while it streamed (shown as interrupted, with Continue). */
export function isInterruptedReply(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.stopReason === 'aborted' && message.errorMessage === INTERRUPTED_BY_RELOAD;
}
