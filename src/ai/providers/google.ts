// Google Gemini through @google/genai (loaded on first use), mapped onto the unified stream.
import type { GenerateContentParameters, GenerateContentResponse, ThinkingConfig, Tool as GeminiTool } from '@google/genai';
import { CONCH_GEMINI_ID_PREFIX, geminiContents, geminiTools } from '../convert/google';
import { newToolCallId } from '../convert/ids';
import { PROVIDER_LABELS } from '../provider-id';
import type { AssistantMessageStream, Model, StreamRequest } from '../types';
import { hasWebTools } from '../server-tools';
import type { AssistantMessageBuilder } from './assistant-builder';
import { readGrounding } from './google-grounding';
import { runProvider, type AttemptOutcome, type ProviderStreamOptions } from './run-provider';

const THINKING_BUDGET = { low: 1024, medium: 8192, high: 24_576 } as const;

/** Streams one Gemini reply. Never throws: failures arrive as an `error` event. */
export function streamGoogle(model: Model, request: StreamRequest, options?: ProviderStreamOptions): AssistantMessageStream {
  return runProvider(model, PROVIDER_LABELS.google.short, options, async ({ builder, signal, options }) => {
    const { GoogleGenAI } = await import('@google/genai');
    // The SDK's errors carry no headers, so the last failed response's headers are kept for retry-after.
    let failedHeaders: Headers | undefined;
    const baseFetch = options.fetch ?? globalThis.fetch;
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await baseFetch(input, init);
      failedHeaders = response.ok ? undefined : response.headers;
      return response;
    };
    const client = new GoogleGenAI({
      apiKey: options.apiKey ?? '',
      httpOptions: {
        ...(model.baseUrl ? { baseUrl: model.baseUrl } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
        fetch: recordingFetch,
      },
    });
    try {
      const chunks = await client.models.generateContentStream(googleParams(model, request, options, signal));
      return await readGeminiStream(chunks, builder);
    } catch (error) {
      if (failedHeaders && error instanceof Error) Object.assign(error, { headers: failedHeaders });
      throw error;
    }
  });
}

export function googleParams(model: Model, request: StreamRequest, options: ProviderStreamOptions, signal?: AbortSignal): GenerateContentParameters {
  const tools: GeminiTool[] = [
    ...(request.tools.length > 0 ? [{ functionDeclarations: geminiTools(request.tools) }] : []),
    ...(options.webTools && hasWebTools(model) ? [{ googleSearch: {} }, { urlContext: {} }] : []),
  ];
  return {
    model: model.id,
    contents: geminiContents(request.messages, model),
    config: {
      ...(request.systemPrompt ? { systemInstruction: request.systemPrompt } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(options.maxTokens ? { maxOutputTokens: options.maxTokens } : {}),
      ...(model.reasoning ? { thinkingConfig: thinkingConfig(model, options.thinking) } : {}),
      ...(signal ? { abortSignal: signal } : {}),
    },
  };
}

function thinkingConfig(model: Model, level: ProviderStreamOptions['thinking']): ThinkingConfig {
  if (level === undefined) return { includeThoughts: true };
  // Pro models cannot switch thinking off; the smallest budget is the closest to "off" they allow.
  if (level === 'off') return model.id.includes('pro') ? { thinkingBudget: 128 } : { thinkingBudget: 0 };
  return { includeThoughts: true, thinkingBudget: THINKING_BUDGET[level] };
}

async function readGeminiStream(chunks: AsyncIterable<GenerateContentResponse>, builder: AssistantMessageBuilder): Promise<AttemptOutcome> {
  let finishReason: string | undefined;
  let sawToolCall = false;
  let searches = 0;

  for await (const chunk of chunks) {
    const usage = chunk.usageMetadata;
    const candidate = chunk.candidates?.[0];
    if (usage) {
      const cached = usage.cachedContentTokenCount ?? 0;
      builder.setUsage({
        input: (usage.promptTokenCount ?? 0) - cached,
        output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
        cacheRead: cached,
        cacheWrite: 0,
        ...(searches > 0 ? { webSearches: searches } : {}),
      });
    }
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) {
        sawToolCall = true;
        const call = part.functionCall;
        const index = builder.openToolCall(call.id || newToolCallId(CONCH_GEMINI_ID_PREFIX), call.name ?? '', part.thoughtSignature);
        builder.appendToolArguments(index, JSON.stringify(call.args ?? {}));
        builder.closeToolCall(index);
      } else if (part.thought) {
        const last = builder.message.content.length - 1;
        const index = builder.message.content[last]?.type === 'thinking' ? last : builder.openThinking();
        builder.appendThinking(index, part.text ?? '');
        if (part.thoughtSignature) builder.setSignature(index, part.thoughtSignature);
      } else if (part.text !== undefined) {
        builder.text(part.text);
        // Gemini 3 signs the text itself when thoughts are hidden; the signature is kept in an empty thinking block
        // right after the text, and goes back on the text part (convert/google.ts).
        if (part.thoughtSignature) builder.openThinking(part.thoughtSignature);
      }
    }
    const searched = readGrounding(builder, candidate);
    if (searched !== searches) {
      searches = searched;
      builder.setUsage({ ...builder.message.usage, webSearches: searches });
    }
    if (candidate?.finishReason) finishReason = candidate.finishReason;
  }
  switch (finishReason) {
    case undefined:
      return undefined;
    case 'STOP':
      return sawToolCall ? 'toolUse' : 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'MALFORMED_FUNCTION_CALL':
      return { refused: 'Gemini produced a malformed tool call (finish reason MALFORMED_FUNCTION_CALL). Try again.' };
    default:
      return { refused: `Gemini stopped the reply (finish reason ${finishReason}).` };
  }
}
