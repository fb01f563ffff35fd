// The small readings of messages and errors every layer needs, written once: the text of a message, a session title
// from a prompt, and an error as text for a person or the model.
import type { Message, UserMessage } from './types';

/** The longest session title made from a prompt (the session list and the header show the same one). */
export const TITLE_MAX_LENGTH = 60;

/**
 * The text of a message or of a content list: text blocks joined by `separator`; images (and a reply's thinking and
 * tool calls) leave nothing, unless `imageText` names what an image stands for.
 */
export function messageText(
  source: Message | UserMessage['content'],
  options: { separator?: string; imageText?: string } = {},
): string {
  const content = typeof source === 'string' || Array.isArray(source) ? source : source.content;
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'image' && options.imageText !== undefined) parts.push(options.imageText);
  }
  return parts.join(options.separator ?? '\n');
}

/** A session title from the first prompt: its first non-empty line, blanks collapsed, cut to TITLE_MAX_LENGTH. */
export function titleFromPrompt(text: string): string {
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim().replace(/\s+/g, ' ');
  return line.length > TITLE_MAX_LENGTH ? `${line.slice(0, TITLE_MAX_LENGTH - 1)}…` : line;
}

/** An error (or anything thrown) as the text a person or the model reads. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
