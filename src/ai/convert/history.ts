// Rules shared by every provider for replaying a session's history: which assistant content survives, how thinking
// from another model is handled, how a failed tool result reads, and what happens to images a model cannot see.
import { sameServerToolProvider, serverToolText } from '../server-tools';
import type {
  AssistantMessage,
  ImageContent,
  Model,
  ServerToolContent,
  TextContent,
  ThinkingContent,
  ToolCall,
  ToolResultMessage,
  UserMessage,
} from '../types';

/** Signed thinking (and Gemini call signatures) may only go back to the exact model that produced them. */
export function isSameModel(message: AssistantMessage, model: Model): boolean {
  return message.provider === model.provider && message.model === model.id;
}

export type ReplayBlock = TextContent | ThinkingContent | ToolCall | ServerToolContent;

/**
 * The assistant content worth sending back: empty text dropped; thinking kept (signed, same model), turned into plain
 * text (other model) or dropped (`thinkingAsText: false`); the provider's searches and fetches kept for their own
 * provider when it takes them back (`serverTools: 'keep'`), told to it as text (`'text'`: its tools are not offered
 * this time, and it refuses their blocks without them) or dropped (`'drop'`), and told as text to any other model.
 * Undefined when nothing is left, e.g. an aborted empty reply.
 */
export function replayableContent(
  message: AssistantMessage,
  model: Model,
  opts: { keepSignedThinking: boolean; thinkingAsText: boolean; serverTools?: 'keep' | 'text' | 'drop' },
): ReplayBlock[] | undefined {
  const same = isSameModel(message, model);
  const blocks: ReplayBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      if (block.text.trim() !== '') blocks.push(block);
    } else if (block.type === 'thinking') {
      if (opts.keepSignedThinking && same && block.signature) blocks.push(block);
      else if (opts.thinkingAsText && block.thinking.trim() !== '') blocks.push({ type: 'text', text: block.thinking });
    } else if (block.type === 'serverTool') {
      const own = sameServerToolProvider(block, model);
      if (own && opts.serverTools === 'keep') blocks.push(block);
      else if (!own || opts.serverTools === 'text') blocks.push({ type: 'text', text: `(${serverToolText(block)})` });
    } else {
      blocks.push(same ? block : withoutSignature(block));
    }
  }
  return blocks.length > 0 ? blocks : undefined;
}

function withoutSignature(call: ToolCall): ToolCall {
  const { thoughtSignature: _dropped, ...rest } = call;
  return rest;
}

/** The text of a tool result; a failure says so, for providers without a native error flag. */
export function toolResultText(result: ToolResultMessage, opts: { markErrors: boolean }): string {
  const text = result.content
    .filter((part): part is TextContent => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
  const body = text || (result.content.some((p) => p.type === 'image') ? '(see attached image)' : '(no output)');
  if (!opts.markErrors || !result.isError || /^error\b/i.test(body)) return body;
  return `Error: ${body}`;
}

export function imagesOf(content: (TextContent | ImageContent)[]): ImageContent[] {
  return content.filter((part): part is ImageContent => part.type === 'image');
}

export const IMAGE_NOT_SUPPORTED = '(an image was attached here, but this model does not accept images)';

export function acceptsImages(model: Model): boolean {
  return model.input.includes('image');
}

/** User content as a list of parts, with images the model cannot read replaced by a note. */
export function userParts(message: UserMessage, model: Model): (TextContent | ImageContent)[] {
  const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
  return parts
    .map((part) => (part.type === 'image' && !acceptsImages(model) ? { type: 'text' as const, text: IMAGE_NOT_SUPPORTED } : part))
    .filter((part) => part.type === 'image' || part.text !== '');
}

export function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
