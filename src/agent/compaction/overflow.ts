// Recognising a reply the provider refused because the request no longer fits the model's context window. The loop
// recovers from the first one in a call by itself (model-call.ts); one that still ends a run is a second overflow,
// which the app reports with a way to compact harder.
import { isContextOverflow } from '../../ai/errors';
import type { AssistantMessage, Message } from '../../ai/types';

/** True for a reply refused before anything streamed, as too long for the context window. */
export function isContextOverflowMessage(message: Message): message is AssistantMessage {
  return (
    message.role === 'assistant' &&
    message.stopReason === 'error' &&
    message.content.length === 0 &&
    isContextOverflow(message.errorMessage ?? '')
  );
}
