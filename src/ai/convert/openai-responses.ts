// Conch history and tools -> OpenAI Responses API input items.
import type {
  FunctionTool,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type { Message, Model, Tool, ToolCall } from '../types';
import { acceptsImages, dataUrl, isSameModel, replayableContent, toolResultText, userParts } from './history';
import { safeToolCallId } from './ids';
import { plainSchema } from './schema';

/** Conch ids for Responses calls join the two ids the API pairs: `<call_id>|<item id>`. */
export function responsesToolCallId(callId: string, itemId: string | undefined): string {
  return itemId ? `${callId}|${itemId}` : callId;
}

/** The call_id (and, for the same model, the item id) to send back for a Conch tool-call id. */
export function responsesCallIds(id: string, sameModel: boolean): { callId: string; itemId?: string } {
  const [callId, itemId] = id.split('|', 2);
  if (itemId !== undefined && sameModel) return { callId: safeToolCallId(callId, 64), itemId };
  return { callId: safeToolCallId(itemId !== undefined ? callId : id, 64) };
}

export function responsesTools(tools: Tool[]): FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: plainSchema(tool.parameters),
    strict: false,
  }));
}

/** Reasoning items travel whole (with encrypted content) in the thinking block's signature, as JSON. */
export function reasoningItemOf(signature: string | undefined): ResponseReasoningItem | undefined {
  if (!signature) return undefined;
  try {
    const item = JSON.parse(signature) as ResponseReasoningItem;
    return item?.type === 'reasoning' && typeof item.id === 'string' ? item : undefined;
  } catch {
    return undefined;
  }
}

export function responsesInput(messages: Message[], model: Model): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const parts = userParts(message, model);
      if (parts.length === 0) continue;
      out.push({
        role: 'user',
        content: parts.map((part): ResponseInputContent =>
          part.type === 'text'
            ? { type: 'input_text', text: part.text }
            : { type: 'input_image', image_url: dataUrl(part), detail: 'auto' },
        ),
      });
    } else if (message.role === 'assistant') {
      const same = isSameModel(message, model);
      const blocks = replayableContent(message, model, { keepSignedThinking: true, thinkingAsText: true });
      for (const block of blocks ?? []) {
        if (block.type === 'thinking') {
          const item = reasoningItemOf(block.signature);
          if (item) out.push(item);
        } else if (block.type === 'text') {
          out.push({ role: 'assistant', content: block.text });
        } else {
          out.push(functionCallItem(block, same));
        }
      }
    } else {
      const images = acceptsImages(model) ? message.content.filter((p) => p.type === 'image') : [];
      const text = toolResultText(message, { markErrors: true });
      const output: string | ResponseFunctionCallOutputItemList =
        images.length === 0
          ? text
          : [
              { type: 'input_text', text },
              ...images.map((image) => ({ type: 'input_image' as const, image_url: dataUrl(image), detail: 'auto' as const })),
            ];
      out.push({
        type: 'function_call_output',
        call_id: responsesCallIds(message.toolCallId, false).callId,
        output,
      });
    }
  }
  return out;
}

function functionCallItem(call: ToolCall, sameModel: boolean): ResponseInputItem {
  const { callId, itemId } = responsesCallIds(call.id, sameModel);
  return {
    type: 'function_call',
    call_id: callId,
    name: call.name,
    arguments: JSON.stringify(call.arguments),
    ...(itemId ? { id: itemId } : {}),
  };
}
