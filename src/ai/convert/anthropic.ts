// Conch history and tools -> Anthropic Messages API parameters.
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool as AnthropicTool,
  ToolResultBlockParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages';
import type { ImageContent, Message, Model, TextContent, Tool } from '../types';
import { IMAGE_NOT_SUPPORTED, acceptsImages, replayableContent, toolResultText, userParts } from './history';
import { anthropicToolCallId } from './ids';
import { plainSchema } from './schema';

/** Redacted thinking has no text; its opaque payload rides in `signature` behind this marker. */
export const REDACTED_THINKING_PREFIX = 'redacted_thinking:';

export function anthropicTools(tools: Tool[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...plainSchema(tool.parameters) } as AnthropicTool['input_schema'],
  }));
}

/**
 * Anthropic wants tool results as blocks of the next user message, so consecutive results are grouped. Its own
 * server-tool blocks (and the citations into them) go back as they came only when `webTools` offers the tools again.
 */
export function anthropicMessages(messages: Message[], model: Model, webTools = false): MessageParam[] {
  const out: MessageParam[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const content = userParts(message, model).map(partToBlock);
      if (content.length > 0) out.push({ role: 'user', content });
    } else if (message.role === 'assistant') {
      const blocks = replayableContent(message, model, { keepSignedThinking: true, thinkingAsText: true, serverTools: webTools ? 'keep' : 'text' });
      if (!blocks) continue;
      const ownCitations = webTools && message.provider === model.provider;
      const content: ContentBlockParam[] = blocks.flatMap((block): ContentBlockParam | ContentBlockParam[] => {
        if (block.type === 'text') return textBlock(block, ownCitations);
        // The API requires its server_tool_use and *_tool_result blocks back exactly as it sent them.
        if (block.type === 'serverTool') return block.raw as ContentBlockParam[];
        if (block.type === 'toolCall') {
          return { type: 'tool_use', id: anthropicToolCallId(block.id), name: block.name, input: block.arguments };
        }
        const signature = block.signature ?? '';
        return signature.startsWith(REDACTED_THINKING_PREFIX)
          ? { type: 'redacted_thinking', data: signature.slice(REDACTED_THINKING_PREFIX.length) }
          : { type: 'thinking', thinking: block.thinking, signature };
      });
      out.push({ role: 'assistant', content });
    } else {
      const result: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: anthropicToolCallId(message.toolCallId),
        content: toolResultBlocks(message.content, model, toolResultText(message, { markErrors: false })),
        is_error: message.isError,
      };
      const previous = out[out.length - 1];
      const groupable = previous?.role === 'user' && Array.isArray(previous.content) &&
        previous.content.every((block) => block.type === 'tool_result');
      if (groupable && Array.isArray(previous.content)) previous.content.push(result);
      else out.push({ role: 'user', content: [result] });
    }
  }
  markCacheBreakpoint(out);
  return out;
}

/** A reply's text, with the provider's own citations when they came from this provider (they point into its results). */
function textBlock(block: TextContent, ownCitations: boolean): TextBlockParam {
  const raws = ownCitations ? (block.citations ?? []).flatMap((citation) => (citation.raw === undefined ? [] : [citation.raw])) : [];
  return raws.length > 0
    ? { type: 'text', text: block.text, citations: raws as TextBlockParam['citations'] }
    : { type: 'text', text: block.text };
}

/** Anthropic's server-side web tools, newest versions the SDK lists; `maxUses` caps each per request. */
export function anthropicWebTools(maxUses: number): ToolUnion[] {
  return [
    { type: 'web_search_20260318', name: 'web_search', max_uses: maxUses },
    { type: 'web_fetch_20260318', name: 'web_fetch', max_uses: maxUses },
  ];
}

function partToBlock(part: TextContent | ImageContent): TextBlockParam | ImageBlockParam {
  return part.type === 'text' ? { type: 'text', text: part.text } : imageBlock(part);
}

function imageBlock(image: ImageContent): ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: image.mimeType as 'image/png', data: image.data },
  };
}

function toolResultBlocks(
  content: (TextContent | ImageContent)[],
  model: Model,
  fallbackText: string,
): (TextBlockParam | ImageBlockParam)[] {
  const blocks = content
    .filter((part) => part.type === 'image' || part.text !== '')
    .map((part) =>
      part.type === 'image' && !acceptsImages(model) ? { type: 'text' as const, text: IMAGE_NOT_SUPPORTED } : partToBlock(part),
    );
  return blocks.length > 0 ? blocks : [{ type: 'text', text: fallbackText }];
}

/** Prompt caching: marking the newest block lets the next request read everything before it from the cache. */
function markCacheBreakpoint(messages: MessageParam[]): void {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user' || !Array.isArray(last.content)) return;
  const block = last.content[last.content.length - 1];
  if (block && (block.type === 'text' || block.type === 'tool_result' || block.type === 'image')) {
    block.cache_control = { type: 'ephemeral' };
  }
}
