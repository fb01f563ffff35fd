// OpenAI Responses API through the `openai` SDK (loaded on first use). Used for OpenAI's own models: it is the API
// that returns reasoning (encrypted, so it can be replayed with store: false) alongside tool calls.
import type {
  Response,
  ResponseCreateParamsStreaming,
  ResponseIncludable,
  ResponseStreamEvent,
  Tool,
} from 'openai/resources/responses/responses';
import {
  NEXT_MESSAGE_ID,
  RESPONSES_WEB_SEARCH,
  reasoningItemOf,
  responsesInput,
  responsesToolCallId,
  responsesTools,
} from '../convert/openai-responses';
import { hasWebTools } from '../server-tools';
import { urlCitation, webSearchBlock } from './responses-web-search';
import { PROVIDER_LABELS } from '../provider-id';
import type { AssistantMessageStream, Model, StreamRequest } from '../types';
import type { AssistantMessageBuilder } from './assistant-builder';
import { runProvider, type AttemptOutcome, type ProviderStreamOptions } from './run-provider';
import { createOpenAIClient } from './openai-client';

/** Streams one Responses API reply. Never throws: failures arrive as an `error` event. */
export function streamOpenAIResponses(model: Model, request: StreamRequest, options?: ProviderStreamOptions): AssistantMessageStream {
  return runProvider(model, PROVIDER_LABELS.openai.short, options, async ({ builder, signal, options }) => {
    const client = await createOpenAIClient(model, options);
    const events = await client.responses.create(openAIResponsesParams(model, request, options), { signal });
    return readResponsesStream(events, builder);
  });
}

export function openAIResponsesParams(model: Model, request: StreamRequest, options: ProviderStreamOptions): ResponseCreateParamsStreaming {
  const effort = model.reasoning && options.thinking && options.thinking !== 'off' ? options.thinking : undefined;
  const web = options.webTools === true && hasWebTools(model);
  const tools: Tool[] = [...responsesTools(request.tools), ...(web ? [RESPONSES_WEB_SEARCH] : [])];
  // A search call lists the pages it used only when asked to; the card shows them.
  const include: ResponseIncludable[] = [
    ...(model.reasoning ? (['reasoning.encrypted_content'] as const) : []),
    ...(web ? (['web_search_call.action.sources'] as const) : []),
  ];
  return {
    model: model.id,
    input: responsesInput(request.messages, model, web),
    stream: true,
    // Nothing is kept on OpenAI's side; reasoning comes back encrypted so the next request can carry it.
    store: false,
    ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(options.maxTokens ? { max_output_tokens: options.maxTokens } : {}),
    ...(include.length > 0 ? { include } : {}),
    ...(effort ? { reasoning: { effort, summary: 'auto' } } : {}),
  };
}

async function readResponsesStream(events: AsyncIterable<ResponseStreamEvent>, builder: AssistantMessageBuilder): Promise<AttemptOutcome> {
  const indexOf = new Map<number, number>(); // output_index -> Conch content index
  let sawToolCall = false;
  let searches = 0;
  /** The block of an output item, opened on its first delta if its `output_item.added` never came. */
  const blockFor = (outputIndex: number, open: () => number): number => {
    let index = indexOf.get(outputIndex);
    if (index === undefined) indexOf.set(outputIndex, (index = open()));
    return index;
  };

  for await (const event of events) {
    switch (event.type) {
      case 'response.output_item.added': {
        const item = event.item;
        if (item.type === 'reasoning') indexOf.set(event.output_index, builder.openThinking());
        else if (item.type === 'message') indexOf.set(event.output_index, builder.openText());
        else if (item.type === 'function_call') {
          sawToolCall = true;
          indexOf.set(event.output_index, builder.openToolCall(responsesToolCallId(item.call_id, item.id), item.name));
        } else if (item.type === 'web_search_call') {
          indexOf.set(event.output_index, builder.openServerTool(webSearchBlock(item)));
        }
        break;
      }
      case 'response.output_text.annotation.added': {
        const citation = urlCitation(event.annotation);
        const index = indexOf.get(event.output_index);
        if (citation && index !== undefined) builder.addCitation(index, citation);
        break;
      }
      case 'response.reasoning_summary_part.added':
        if (event.summary_index > 0) builder.appendThinking(indexOf.get(event.output_index) ?? -1, '\n\n');
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        builder.appendThinking(blockFor(event.output_index, () => builder.openThinking()), event.delta);
        break;
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        builder.appendText(blockFor(event.output_index, () => builder.openText()), event.delta);
        break;
      case 'response.function_call_arguments.delta':
        builder.appendToolArguments(indexOf.get(event.output_index) ?? -1, event.delta);
        break;
      case 'response.function_call_arguments.done':
        builder.closeToolCall(indexOf.get(event.output_index) ?? -1, event.arguments);
        break;
      case 'response.output_item.done': {
        const index = indexOf.get(event.output_index);
        const item = event.item;
        if (index === undefined) break;
        if (item.type === 'reasoning') {
          builder.setSignature(index, JSON.stringify({ type: 'reasoning', id: item.id, summary: item.summary, encrypted_content: item.encrypted_content ?? null }));
        } else if (item.type === 'message') {
          rememberFollowingMessage(builder, indexOf.get(event.output_index - 1), item.id);
        } else if (item.type === 'function_call') builder.closeToolCall(index, item.arguments);
        else if (item.type === 'web_search_call') {
          Object.assign(builder.message.content[index], webSearchBlock(item));
          if (item.action?.type === 'search') searches++;
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        setUsage(builder, event.response, searches);
        if (event.response.incomplete_details?.reason === 'max_output_tokens') return 'length';
        if (event.response.incomplete_details?.reason === 'content_filter') {
          return { refused: 'OpenAI\'s content filter stopped the reply.' };
        }
        return sawToolCall ? 'toolUse' : 'stop';
      case 'response.failed':
        setUsage(builder, event.response);
        throw responseError(event.response.error?.message ?? 'The response failed.', event.response.error?.code);
      case 'error':
        throw responseError(event.message, event.code ?? undefined);
    }
  }
  return undefined;
}

/** Keeps the id of a message that followed a reasoning item with that item, so both can be sent back as a pair. */
function rememberFollowingMessage(builder: AssistantMessageBuilder, reasoningIndex: number | undefined, messageId: string): void {
  const block = reasoningIndex === undefined ? undefined : builder.message.content[reasoningIndex];
  if (block?.type !== 'thinking' || reasoningIndex === undefined) return;
  const stored = reasoningItemOf(block.signature);
  if (stored) builder.setSignature(reasoningIndex, JSON.stringify({ ...stored.item, [NEXT_MESSAGE_ID]: messageId }));
}

function setUsage(builder: AssistantMessageBuilder, response: Response, webSearches = 0): void {
  const usage = response.usage;
  if (!usage) return;
  const cached = usage.input_tokens_details?.cached_tokens ?? 0;
  builder.setUsage({
    input: usage.input_tokens - cached, output: usage.output_tokens, cacheRead: cached, cacheWrite: 0,
    ...(webSearches > 0 ? { webSearches } : {}),
  });
}

/** Shaped like an SDK APIError so errors.ts classifies it the same way (codes like rate_limit_exceeded, server_error). */
function responseError(message: string, code?: string): Error {
  const status = code === 'rate_limit_exceeded' ? 429 : code === 'server_error' ? 500 : undefined;
  return Object.assign(new Error(message), { status, error: { message, code } });
}
