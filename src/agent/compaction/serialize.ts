// The transcript as plain text for the summary call. Sent as messages, the model would tend to carry on the
// conversation; as a labelled text it reads it as something to summarise. Tool results are cut, since their gist is
// what a summary keeps.
import { serverToolText } from '../../ai/server-tools';
import type { Message } from '../../ai/types';

export const TOOL_RESULT_CHARS = 2_000;

/** One message as plain text; tool results are cut to `toolResultChars`. */
export function serializeMessage(message: Message, toolResultChars = TOOL_RESULT_CHARS): string {
  switch (message.role) {
    case 'user': {
      const text =
        typeof message.content === 'string'
          ? message.content
          : message.content.map((block) => (block.type === 'text' ? block.text : `[image: ${block.mimeType}]`)).join('\n');
      return `[User]: ${text}`;
    }
    case 'assistant': {
      const lines: string[] = [];
      for (const block of message.content) {
        if (block.type === 'text') lines.push(`[Assistant]: ${block.text}`);
        else if (block.type === 'thinking') lines.push(`[Assistant thinking]: ${block.thinking}`);
        else if (block.type === 'serverTool') lines.push(`[Provider ${block.kind}]: ${serverToolText(block)}`);
        else lines.push(`[Assistant tool call]: ${block.name} ${JSON.stringify(block.arguments)}`);
      }
      if (message.stopReason === 'error' || message.stopReason === 'aborted') {
        lines.push(`[Assistant reply ${message.stopReason === 'error' ? 'failed' : 'stopped'}]: ${message.errorMessage ?? ''}`.trim());
      }
      return lines.join('\n');
    }
    case 'toolResult': {
      const text = message.content.map((block) => (block.type === 'text' ? block.text : `[image: ${block.mimeType}]`)).join('\n');
      const label = `[Tool result: ${message.toolName}${message.isError ? ', error' : ''}]`;
      return `${label}: ${cutText(text, toolResultChars)}`;
    }
  }
}

/** Messages as plain text, one blank line apart. */
export function serializeTranscript(messages: readonly Message[], toolResultChars = TOOL_RESULT_CHARS): string {
  return messages.map((message) => serializeMessage(message, toolResultChars)).join('\n\n');
}

/** `text` cut to about `limit` characters, saying how much was left out. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[… ${text.length - limit} more characters not shown]`;
}
