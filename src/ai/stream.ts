// The one entry point from the agent loop to any provider. Which wire API a model uses follows from its provider id:
//   anthropic         -> Anthropic Messages API        (baseUrl: API root, default https://api.anthropic.com)
//   openai            -> OpenAI Responses API          (baseUrl: up to /v1, default https://api.openai.com/v1)
//   google            -> Gemini streamGenerateContent  (baseUrl: API root, default https://generativelanguage.googleapis.com)
//   openai-compatible -> OpenAI Chat Completions       (baseUrl: up to /v1, from a preset or typed; required)
// Each adapter loads its SDK with a dynamic import() on first use, so no SDK is in the initial bundle.
import { presetForBaseUrl } from './presets';
import { isProviderId, PROVIDER_LABELS } from './provider-id';
import { streamAnthropic } from './providers/anthropic';
import { streamGoogle } from './providers/google';
import { streamOpenAICompletions } from './providers/openai-completions';
import { streamOpenAIResponses } from './providers/openai-responses';
import { AssistantMessageBuilder } from './providers/assistant-builder';
import type { ProviderStreamOptions } from './providers/run-provider';
import type { AssistantMessageStream, Model, StreamRequest } from './types';

export type { ProviderStreamOptions } from './providers/run-provider';

export { PROVIDER_IDS, type ProviderId } from './provider-id';
export type WireApi = 'anthropic-messages' | 'openai-responses' | 'openai-completions' | 'google-generative-ai';

/** The wire API a model speaks, or undefined for an unknown provider id. */
export function wireApiOf(model: Model): WireApi | undefined {
  switch (model.provider) {
    case 'anthropic':
      return 'anthropic-messages';
    case 'openai':
      return 'openai-responses';
    case 'google':
      return 'google-generative-ai';
    case 'openai-compatible':
      return 'openai-completions';
    default:
      return undefined;
  }
}

/** Streams one assistant reply from the model's provider (a StreamFn). Never throws: failures are `error` events. */
export function stream(model: Model, request: StreamRequest, options?: ProviderStreamOptions): AssistantMessageStream {
  const keyHolder = keyHolderOf(model.provider);
  // A custom base URL (a proxy, the mock provider) may take no key; the providers' own endpoints always want one.
  if (keyHolder && !options?.apiKey && !model.baseUrl) {
    return failed(model, `No ${keyHolder} API key is set. Add it in settings; Conch sends it only to ${keyHolder}.`);
  }
  switch (wireApiOf(model)) {
    case 'anthropic-messages':
      return streamAnthropic(model, request, options);
    case 'openai-responses':
      return streamOpenAIResponses(model, request, options);
    case 'google-generative-ai':
      return streamGoogle(model, request, options);
    case 'openai-completions':
      if (!model.baseUrl) return failed(model, 'Set a base URL for this OpenAI-compatible endpoint in settings.');
      return streamOpenAICompletions(model, request, options, presetForBaseUrl(model.baseUrl)?.label ?? model.baseUrl);
    case undefined:
      return failed(model, `Conch does not know the provider "${model.provider}". Pick one in settings.`);
  }
}

/** The name of the provider whose own endpoint always wants a key; undefined for an endpoint the person set up. */
function keyHolderOf(provider: string): string | undefined {
  return isProviderId(provider) && provider !== 'openai-compatible' ? PROVIDER_LABELS[provider].short : undefined;
}

function failed(model: Model, message: string): AssistantMessageStream {
  const builder = new AssistantMessageBuilder(model);
  builder.start();
  builder.fail('error', message);
  return builder.stream;
}
