// Conch history and tools -> OpenAI Chat Completions messages (also used by every OpenAI-compatible endpoint).
import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ImageContent, Message, Model, Tool } from '../types';
import { acceptsImages, dataUrl, imagesOf, replayableContent, toolResultText, userParts } from './history';
import { openAIChatToolCallId } from './ids';
import { plainSchema } from './schema';

export function openAIChatTools(tools: Tool[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: plainSchema(tool.parameters) },
  }));
}

/**
 * Chat Completions has no images in tool messages, so a tool result's images follow the run of tool messages as one
 * user message. Thinking is never sent back: the API has no field for it and some compatible servers reject it.
 */
export function openAIChatMessages(systemPrompt: string, messages: Message[], model: Model): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (systemPrompt) out.push({ role: 'system', content: systemPrompt });
  let pendingImages: ImageContent[] = [];
  const flushImages = () => {
    if (pendingImages.length === 0) return;
    out.push({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by the tool calls above:' },
        ...pendingImages.map((image): ChatCompletionContentPart => ({ type: 'image_url', image_url: { url: dataUrl(image) } })),
      ],
    });
    pendingImages = [];
  };

  for (const message of messages) {
    if (message.role !== 'toolResult') flushImages();
    if (message.role === 'user') {
      const parts = userParts(message, model);
      if (parts.length === 0) continue;
      out.push({
        role: 'user',
        content: parts.map((part): ChatCompletionContentPart =>
          part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: dataUrl(part) } },
        ),
      });
    } else if (message.role === 'assistant') {
      const blocks = replayableContent(message, model, { keepSignedThinking: false, thinkingAsText: false });
      if (!blocks) continue;
      const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
      const calls = blocks.flatMap((b) => (b.type === 'toolCall' ? [b] : []));
      out.push({
        role: 'assistant',
        content: text || null,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: openAIChatToolCallId(call.id),
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {}),
      });
    } else {
      const images = imagesOf(message.content);
      const note = images.length > 0 && acceptsImages(model) ? '\n(The image output follows in the next message.)' : '';
      out.push({
        role: 'tool',
        tool_call_id: openAIChatToolCallId(message.toolCallId),
        content: toolResultText(message, { markErrors: true }) + note,
      });
      if (acceptsImages(model)) pendingImages.push(...images);
    }
  }
  flushImages();
  return out;
}
