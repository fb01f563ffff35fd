// OpenAI Chat Completions through the `openai` SDK (loaded on first use). Serves OpenAI-compatible endpoints
// (OpenRouter, Groq, DeepSeek, Ollama, LM Studio, custom), which share this wire format.
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { openAIChatMessages, openAIChatTools } from '../convert/openai-completions';
import type { AssistantMessageStream, Model, StreamRequest } from '../types';
import type { AssistantMessageBuilder } from './assistant-builder';
import { runProvider, type AttemptOutcome, type ProviderStreamOptions } from './run-provider';
import { createOpenAIClient } from './openai-client';

/** Streams one Chat Completions reply. Never throws: failures arrive as an `error` event. */
export function streamOpenAICompletions(
  model: Model,
  request: StreamRequest,
  options?: ProviderStreamOptions,
  providerLabel = 'The provider',
): AssistantMessageStream {
  return runProvider(model, providerLabel, options, async ({ builder, signal, options }) => {
    const client = await createOpenAIClient(model, options);
    const chunks = await client.chat.completions.create(openAICompletionsParams(model, request, options), { signal });
    return readChatStream(chunks, builder);
  });
}

export function openAICompletionsParams(
  model: Model,
  request: StreamRequest,
  options: ProviderStreamOptions,
): ChatCompletionCreateParamsStreaming {
  const official = model.provider === 'openai' || isOpenAIItself(model.baseUrl);
  const effort = model.reasoning && options.thinking && options.thinking !== 'off' ? options.thinking : undefined;
  return {
    model: model.id,
    messages: openAIChatMessages(request.systemPrompt, request.messages, model),
    stream: true,
    stream_options: { include_usage: true },
    ...(request.tools.length > 0 ? { tools: openAIChatTools(request.tools) } : {}),
    // Compatible servers mostly know only the older `max_tokens`.
    ...(options.maxTokens ? (official ? { max_completion_tokens: options.maxTokens } : { max_tokens: options.maxTokens }) : {}),
    ...(effort && official ? { reasoning_effort: effort } : {}),
  };
}

function isOpenAIItself(baseUrl: string | undefined): boolean {
  try {
    return baseUrl !== undefined && new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/** Compatible servers stream reasoning under one of these non-standard delta fields. */
type ReasoningDelta = { reasoning_content?: string | null; reasoning?: string | null };

async function readChatStream(chunks: AsyncIterable<ChatCompletionChunk>, builder: AssistantMessageBuilder): Promise<AttemptOutcome> {
  const toolIndexOf = new Map<number | undefined, number>(); // tool_calls[].index -> Conch content index
  let finish: string | null = null;

  for await (const chunk of chunks) {
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      builder.setUsage({
        input: chunk.usage.prompt_tokens - cached,
        output: chunk.usage.completion_tokens,
        cacheRead: cached,
        cacheWrite: 0,
      });
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const reasoning = (delta as ReasoningDelta).reasoning_content ?? (delta as ReasoningDelta).reasoning;
    if (reasoning) builder.thinking(reasoning);
    if (delta.content) builder.text(delta.content);
    for (const call of delta.tool_calls ?? []) {
      let index = toolIndexOf.get(call.index);
      // Some compatible servers omit `index` or repeat 0 for every call; a new id then means a new call.
      const current = index === undefined ? undefined : builder.message.content[index];
      if (index === undefined || (call.id && current?.type === 'toolCall' && current.id !== call.id)) {
        if (index !== undefined) builder.closeToolCall(index);
        index = builder.openToolCall(call.id || `call_${call.index}_${Date.now().toString(36)}`, call.function?.name ?? '');
        toolIndexOf.set(call.index, index);
      }
      if (call.function?.arguments) builder.appendToolArguments(index, call.function.arguments);
    }
    if (choice.finish_reason) {
      finish = choice.finish_reason;
      for (const index of toolIndexOf.values()) builder.closeToolCall(index);
    }
  }
  // The usage chunk comes after the finish chunk, so the stop reason is only final when the stream ends.
  switch (finish) {
    case null:
      return undefined;
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'toolUse';
    case 'content_filter':
      return { refused: 'The provider\'s content filter stopped the reply (finish reason "content_filter").' };
    default:
      return toolIndexOf.size > 0 ? 'toolUse' : 'stop';
  }
}
