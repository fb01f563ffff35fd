// Old bulky tool results are the cheapest thing to drop from what a summary call reads: the model can re-run the
// tool. Only copies sent to the summary call are pruned; the person's transcript keeps the full output.
import type { Message, ToolResultMessage } from '../../ai/types';
import { serializeMessage } from './serialize';

/** A tool result is bulky from this many characters of text. */
export const BULKY_RESULT_CHARS = 1_000;

/** The text that replaces a pruned result. */
export function prunedNotice(lines: number): string {
  return `[output removed to save context: ${lines} lines; re-run the tool if needed]`;
}

/** A copy of `result` with its output replaced by the notice (its images dropped too). */
export function pruneToolResult(result: ToolResultMessage): ToolResultMessage {
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  return { ...result, content: [{ type: 'text', text: prunedNotice(text.split('\n').length) }] };
}

/**
 * `messages` with their oldest bulky tool results pruned until the serialised transcript is at most `maxChars`.
 * Results in the newest quarter of the messages stay: they are what the work was doing last. Returns the input array
 * itself when it already fits.
 */
export function pruneOldToolResults(messages: readonly Message[], maxChars: number): { messages: Message[]; pruned: number } {
  const sizes = messages.map((message) => serializeMessage(message).length + 2);
  let total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= maxChars) return { messages: messages as Message[], pruned: 0 };
  const result = messages.slice();
  const protectedFrom = Math.floor(messages.length * 0.75);
  let pruned = 0;
  for (let i = 0; i < protectedFrom && total > maxChars; i++) {
    const message = result[i];
    if (message.role !== 'toolResult' || !isBulky(message)) continue;
    const replacement = pruneToolResult(message);
    result[i] = replacement;
    total -= sizes[i] - (serializeMessage(replacement).length + 2);
    pruned++;
  }
  return { messages: result, pruned };
}

function isBulky(result: ToolResultMessage): boolean {
  let chars = 0;
  for (const block of result.content) chars += block.type === 'text' ? block.text.length : BULKY_RESULT_CHARS;
  return chars >= BULKY_RESULT_CHARS;
}
