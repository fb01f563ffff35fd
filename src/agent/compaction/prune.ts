// Old bulky tool results are the cheapest thing to drop from what a summary call reads: the model can re-run the
// tool. Only the text sent to the summary call is pruned; the person's transcript keeps the full output.
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
  let lines = 0;
  for (const block of result.content) if (block.type === 'text') lines += countLines(block.text);
  return { ...result, content: [{ type: 'text', text: prunedNotice(Math.max(1, lines)) }] };
}

/**
 * `messages` serialised for the summary call, the oldest bulky tool results pruned until the whole is at most
 * `maxChars` (with a blank line between messages). Results in the newest quarter stay: they are what the work was
 * doing last. What still does not fit is for the caller to chunk.
 */
export function serializeForSummary(messages: readonly Message[], maxChars: number): string[] {
  const texts = messages.map((message) => serializeMessage(message));
  let total = texts.reduce((sum, text) => sum + text.length + 2, 0);
  const protectedFrom = Math.floor(messages.length * 0.75);
  for (let i = 0; i < protectedFrom && total > maxChars; i++) {
    const message = messages[i];
    if (message.role !== 'toolResult' || !isBulky(message)) continue;
    const pruned = serializeMessage(pruneToolResult(message));
    total -= texts[i].length - pruned.length;
    texts[i] = pruned;
  }
  return texts;
}

function isBulky(result: ToolResultMessage): boolean {
  let chars = 0;
  for (const block of result.content) chars += block.type === 'text' ? block.text.length : BULKY_RESULT_CHARS;
  return chars >= BULKY_RESULT_CHARS;
}

function countLines(text: string): number {
  let lines = text.length > 0 ? 1 : 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < text.length - 1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}
