// Conch history and tools -> OpenAI Responses API input items.
import type {
  FunctionTool,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  ResponseOutputText,
  ResponseReasoningItem,
  WebSearchTool,
} from 'openai/resources/responses/responses';
import type { AssistantMessage, Message, Model, TextContent, Tool, ToolCall } from '../types';
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

/** OpenAI's server-side web search (it also opens pages it found: the call's action says which). */
export const RESPONSES_WEB_SEARCH: WebSearchTool = { type: 'web_search' };

/**
 * Reasoning items travel whole (with encrypted content) in the thinking block's signature, as JSON. Conch adds one
 * field of its own, the id of the message that followed the item: with store: false the API pairs a reasoning item
 * with its following item by id, and a Conch text block has nowhere else to keep that id.
 */
export const NEXT_MESSAGE_ID = 'next_message_id';

export type StoredReasoning = { item: ResponseReasoningItem; nextMessageId?: string };

export function reasoningItemOf(signature: string | undefined): StoredReasoning | undefined {
  if (!signature) return undefined;
  try {
    const { [NEXT_MESSAGE_ID]: next, ...item } = JSON.parse(signature) as ResponseReasoningItem & Record<string, unknown>;
    if (item?.type !== 'reasoning' || typeof item.id !== 'string') return undefined;
    return { item, ...(typeof next === 'string' ? { nextMessageId: next } : {}) };
  } catch {
    return undefined;
  }
}

/** The input items; OpenAI's own web_search_call items (and citations) go back as they came only when `webTools` offers the tool again. */
export function responsesInput(messages: Message[], model: Model, webTools = false): ResponseInputItem[] {
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
      out.push(...assistantItems(message, model, webTools));
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

/**
 * One assistant turn as input items. The API rejects a reasoning item without the item that followed it, and a
 * function call (sent with its item id) without the reasoning item that preceded it; where a reasoning item cannot be
 * sent (no encrypted content, unknown following id), it is left out and so are the call item ids.
 */
function assistantItems(message: AssistantMessage, model: Model, webTools: boolean): ResponseInputItem[] {
  const same = isSameModel(message, model);
  const items: ResponseInputItem[] = [];
  let reasoningLeftOut = false;
  let unpaired: { at: number; nextMessageId?: string } | undefined; // a reasoning item waiting for its follower
  const serverTools = webTools ? 'keep' : 'text';
  for (const block of replayableContent(message, model, { keepSignedThinking: true, thinkingAsText: true, serverTools }) ?? []) {
    if (block.type === 'thinking') {
      const stored = reasoningItemOf(block.signature);
      if (unpaired) {
        items.splice(unpaired.at, 1);
        reasoningLeftOut = true;
      }
      if (stored?.item.encrypted_content) {
        unpaired = { at: items.push(stored.item) - 1, nextMessageId: stored.nextMessageId };
      } else {
        unpaired = undefined;
        reasoningLeftOut = true;
      }
      continue;
    }
    if (block.type === 'serverTool') {
      // web_search_call items go back as they came; a reasoning item before one is paired with it.
      items.push(...(block.raw as ResponseInputItem[]));
    } else if (block.type === 'text') {
      if (unpaired?.nextMessageId) {
        items.push({
          type: 'message', role: 'assistant', id: unpaired.nextMessageId, status: 'completed',
          content: [{ type: 'output_text', text: block.text, annotations: same && webTools ? ownAnnotations(block) : [] }],
        });
      } else {
        if (unpaired) {
          items.splice(unpaired.at, 1);
          reasoningLeftOut = true;
        }
        items.push({ role: 'assistant', content: block.text });
      }
    } else {
      items.push(functionCallItem(block, same && !reasoningLeftOut));
    }
    unpaired = undefined;
  }
  if (unpaired) items.splice(unpaired.at, 1);
  return items;
}

/** The url_citation annotations OpenAI put on this text, as it sent them. */
function ownAnnotations(block: TextContent): ResponseOutputText['annotations'] {
  return (block.citations ?? []).flatMap((citation) =>
    citation.raw === undefined ? [] : [citation.raw as ResponseOutputText['annotations'][number]],
  );
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
