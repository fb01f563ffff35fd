// Token estimates without a tokenizer: characters / 4, an image as a flat 1,200 tokens, a tool call as its name plus
// its JSON arguments. Providers only report real counts after a call; these cover everything sent since. The mock
// provider (e2e/mock-provider) counts a request's size with the same rule, so tests see the figures Conch expects.
import type { Message, Tool } from '../../ai/types';

export const CHARS_PER_TOKEN = 4;
export const IMAGE_TOKENS = 1_200;

/** Tokens of a piece of text. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Tokens one message adds to a request. */
export function estimateMessageTokens(message: Message): number {
  let chars = 0;
  let images = 0;
  if (typeof message.content === 'string') {
    chars = message.content.length;
  } else {
    for (const block of message.content) {
      switch (block.type) {
        case 'text':
          chars += block.text.length;
          break;
        case 'image':
          images++;
          break;
        case 'thinking':
          chars += block.thinking.length;
          break;
        case 'toolCall':
          chars += block.name.length + JSON.stringify(block.arguments).length;
          break;
      }
    }
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + images * IMAGE_TOKENS;
}

/** Tokens of the tool schemas offered (name, description and parameters as JSON). */
export function estimateToolTokens(tools: readonly Tool[]): number {
  let chars = 0;
  for (const tool of tools) chars += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Tokens of a whole request before any usage is known: system prompt, tool schemas and every message. */
export function estimateRequestTokens(request: { systemPrompt: string; tools: readonly Tool[]; messages: readonly Message[] }): number {
  let total = estimateTextTokens(request.systemPrompt) + estimateToolTokens(request.tools);
  for (const message of request.messages) total += estimateMessageTokens(message);
  return total;
}
